import { phrase, RuleViolation, type RuleSet } from '../../engine/index.ts';
import { RuleDraft, type DraftShown, type Evidence } from '../http/openapi/studio-release-schemas.ts';
import { newRelease } from '../service/new-release.ts';
import type { Service } from '../service/service.ts';
import { DraftConflict, ReleaseNameTaken, type StoredDraft } from '../store/store.ts';

/**
 * Four eyes on a rule release (docs/releases.md): an analyst drafts one (an edit of the working copy, with the
 * instant it should come into force), which is in review until a second analyst approves it (never its author: it
 * then becomes a release in the store, in force from its instant on every server sharing the store) or rejects it,
 * or its author withdraws it. Each step is recorded with who, when and why; the evidence stays with the draft.
 */

const DECISIONS = { approve: 'APPROVED', reject: 'REJECTED', withdraw: 'WITHDRAWN' } as const;
export type DraftDecision = keyof typeof DECISIONS;

export const shown = (draft: RuleDraft, version: number): DraftShown => {
  const { files: _files, ...rest } = draft;
  return { ...rest, version };
};

/** A draft by its name; 404 for none. */
export async function draftOf(service: Service, name: string): Promise<{ draft: RuleDraft; version: number }> {
  const found = (await service.store.drafts()).find((d) => d.id === name);
  if (!found) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-draft'), id: name });
  return { draft: RuleDraft.parse(found.data), version: found.version };
}

/** Every draft, the latest proposed first. */
export async function draftsOf(service: Service): Promise<Array<{ draft: RuleDraft; version: number }>> {
  const all = (await service.store.drafts()).map((d: StoredDraft) => ({ draft: RuleDraft.parse(d.data), version: d.version }));
  return all.sort((a, b) => Date.parse(b.draft.history[0]!.at) - Date.parse(a.draft.history[0]!.at));
}

/** A name is a release's for ever: a draft may not take one a release or another draft has. */
export async function assertNameFree(service: Service, name: string): Promise<void> {
  const [releases, drafts] = await Promise.all([service.store.releases(), service.store.drafts()]);
  if (releases.some((r) => r.name === name) || drafts.some((d) => d.id === name)) throw new RuleViolation('X_RELEASE_NAME_TAKEN', { release: name });
}

export interface Proposal {
  name: string;
  effectiveFrom: string;
  reason: string;
  decision?: string;
  author: string;
  at: Date;
  rules: RuleSet;
  evidence: Evidence;
}

/** Stores a new draft, in review. */
export async function propose(service: Service, p: Proposal): Promise<{ draft: RuleDraft; version: number }> {
  await assertNameFree(service, p.name);
  const draft: RuleDraft = {
    name: p.name,
    effectiveFrom: p.effectiveFrom,
    reason: p.reason,
    ...(p.decision !== undefined ? { decision: p.decision } : {}),
    author: p.author,
    state: 'IN_REVIEW',
    history: [{ action: 'PROPOSED', by: p.author, at: p.at.toISOString(), comment: p.reason }],
    evidence: p.evidence,
    files: Object.fromEntries(p.rules.sources.map((s) => [s.file.split(/[/\\]/).pop()!, s.text])),
  };
  try {
    await service.store.putDraft({ id: draft.name, version: 1, data: draft });
  } catch (e) {
    if (e instanceof DraftConflict) throw new RuleViolation('X_RELEASE_NAME_TAKEN', { release: draft.name });
    throw e;
  }
  return { draft, version: 1 };
}

/**
 * Approving, rejecting or withdrawing a draft in review. Approving and rejecting take an analyst with the approver
 * scope who is not the author; withdrawing, the author. An approved draft becomes a release at once, in force from
 * its instant; this server reads it at once, the others at their next poll.
 */
export async function decide(
  service: Service,
  name: string,
  decision: DraftDecision,
  by: { client: string; scopes: readonly string[]; at: Date; comment?: string },
): Promise<{ draft: RuleDraft; version: number }> {
  const { draft, version } = await draftOf(service, name);
  if (draft.state !== 'IN_REVIEW') throw new RuleViolation('X_DRAFT_DECIDED', { draft: name, state: draft.state });
  if (decision === 'withdraw') {
    if (by.client !== draft.author) throw new RuleViolation('FORBIDDEN', { reason: phrase('draft-not-yours', { author: draft.author, draft: name }) });
  } else {
    if (!service.engine.rules.clients.clients[by.client]?.scopes.includes('approver'))
      throw new RuleViolation('FORBIDDEN', { reason: phrase('not-an-approver', { client: by.client }) });
    // An approver's token must carry the scope too: one asked for `analyst` alone does not approve.
    if (!by.scopes.includes('approver')) throw new RuleViolation('FORBIDDEN', { reason: phrase('token-lacks-scope', { scope: 'approver' }) });
    if (by.client === draft.author) throw new RuleViolation('X_DRAFT_OWN', { client: by.client, draft: name });
  }
  const next: RuleDraft = {
    ...draft,
    state: DECISIONS[decision],
    history: [...draft.history, { action: DECISIONS[decision], by: by.client, at: by.at.toISOString(), ...(by.comment ? { comment: by.comment } : {}) }],
  };
  try {
    await service.store.putDraft({ id: name, version: version + 1, data: next });
  } catch (e) {
    // Another reviewer decided it in between: theirs stands.
    if (e instanceof DraftConflict) throw new RuleViolation('X_DRAFT_DECIDED', { draft: name, state: (await draftOf(service, name)).draft.state });
    throw e;
  }
  if (decision === 'approve') await release(service, next, by, version + 1);
  return { draft: next, version: version + 1 };
}

/**
 * The approved draft as a release in the store. If the release cannot be made (its name was taken meanwhile by
 * `signalbox release create`), the draft goes back to review with a RETURNED step saying so.
 */
async function release(service: Service, draft: RuleDraft, by: { client: string; at: Date }, version: number): Promise<void> {
  const made = newRelease(
    {
      name: draft.name,
      effectiveFrom: draft.effectiveFrom,
      createdBy: draft.author,
      createdOn: by.at,
      reason: draft.reason,
      approvedBy: by.client,
      draft: draft.name,
    },
    Object.entries(draft.files).map(([file, text]) => ({ file, text })),
  );
  try {
    if ('problems' in made) throw new RuleViolation('X_RULES_REFUSED', { count: made.problems.length });
    await service.store.putRelease(made.release);
  } catch (e) {
    const why = e instanceof ReleaseNameTaken ? `a release named ${draft.name} exists` : (e as Error).message;
    const returned: RuleDraft = {
      ...draft,
      state: 'IN_REVIEW',
      history: [...draft.history, { action: 'RETURNED', by: by.client, at: by.at.toISOString(), comment: why }],
    };
    await service.store.putDraft({ id: draft.name, version: version + 1, data: returned });
    if (e instanceof ReleaseNameTaken) throw new RuleViolation('X_RELEASE_NAME_TAKEN', { release: draft.name });
    throw e;
  }
  // The release is stored: every server reads it at its next poll, so a failed read here is said, not answered.
  await service.releases.refresh().catch((e: unknown) => process.stderr.write(`signalbox: cannot read the rule releases: ${(e as Error).message}\n`));
}
