import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RuleRelease, RuleViolation, type RuleSet } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/index.ts';
import { evidenceOf } from '../../analysis/evidence.ts';
import { DEMO_SECRETS } from '../../harness/demo-secrets.ts';
import { readJournal, type JournalRecord } from '../../http/journal-file.ts';
import { compileRelease, inForceOrder } from '../../service/releases.ts';
import type { Service } from '../../service/service.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import { TableEdit } from '../../http/openapi/studio-schemas.ts';
import { DraftListed, DraftShown, ReleaseList } from '../../http/openapi/studio-release-schemas.ts';
import { decide, draftOf, draftsOf, assertNameFree, propose, shown, type DraftDecision } from '../drafts.ts';
import { decisionOf, edited, rulesRefused } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/** The journal file a draft may bring (docs/replay.md): its lines checked as `signalbox replay` reads them. */
const JournalText = z.string().superRefine((text, ctx) => {
  for (const problem of readJournal(text, 'journal').problems.slice(0, 5)) ctx.addIssue({ code: 'custom', message: problem });
});

const DraftProposal = TableEdit.extend({
  name: RuleRelease.shape.name.describe('The release it becomes once approved: a word, no spaces (`fares-2027`).'),
  effectiveFrom: RuleRelease.shape.effectiveFrom.describe('When it comes into force once approved: an instant with its offset, e.g. `2026-12-13T00:00+01:00`.'),
  reason: z.string().trim().min(1).max(2000).describe('Why the rules change: the reviewer reads it, the release keeps it.'),
  journal: JournalText.optional().describe(
    'A journal file (JSON Lines, docs/replay.md) to replay in the evidence; absent, the sandbox\u2019s own journal of the latest requests.',
  ),
});

const DraftOfFiles = DraftProposal.pick({ name: true, effectiveFrom: true, reason: true, journal: true }).extend({
  files: RuleRelease.shape.files.describe('Every rule file by its name (`tariff.yaml`), as the release is to hold it.'),
});

const Comment = z.string().trim().min(1).max(2000).describe('Why: kept in the draft\u2019s history.');
/** A rejection says why (its author reads it); an approval or a withdrawal may. */
const Decided = {
  approve: z.strictObject({ comment: Comment.optional() }),
  reject: z.strictObject({ comment: Comment }),
  withdraw: z.strictObject({ comment: Comment.optional() }),
};

/**
 * Which requests the evidence replays: the journal file given, else this sandbox's journal as it was sent, personal
 * data and all (the evidence keeps only counts, urls and prices of it).
 */
function journalToReplay(request: FastifyRequest, given: string | undefined): JournalRecord[] | undefined {
  if (given !== undefined) return readJournal(given, 'journal').records;
  return request.server.requestJournal?.records();
}

/**
 * A draft of `rules`, in review, with its evidence gathered against the release it would follow: the one in force
 * at its `effectiveFrom` (a release scheduled before then included), else the rules the server started with.
 */
async function draftWithEvidence(
  request: FastifyRequest,
  studio: Studio,
  service: Service,
  asked: { name: string; effectiveFrom: string; reason: string; journal: string | undefined; decision?: string; author: string },
  rules: RuleSet,
) {
  const now = service.clock.now();
  const live = service.releases.at(new Date(asked.effectiveFrom));
  const evidence = await evidenceOf({
    against: { name: live.release ?? 'rules/', rules: live.rules },
    draft: { name: asked.name, rules },
    scenarios: studio.scenarios(),
    fixtures: studio.fixtures,
    secrets: DEMO_SECRETS,
    now,
    journal: journalToReplay(request, asked.journal),
    examples: service.engine.rules.limits.releaseEvidenceExamples,
  });
  const { journal: _journal, ...draft } = asked;
  return propose(service, { ...draft, at: new Date(), rules, evidence });
}

/** Four eyes on rule releases (docs/releases.md): drafting one from a table edit, reviewing it with its evidence, deciding it. */
export const draftOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/drafts',
    ...studioEntry,
    summary: 'Draft a rule release from an edit of the table',
    access: 'analyst',
    request: { schema: DraftProposal, required: true },
    description:
      'The working copy with the edited table becomes a draft of a release named `name`, in force from `effectiveFrom` once another analyst approves it. Nothing is written to the rules folder and nothing changes for callers until then. Its evidence is gathered at once: the rule diff against the release in force at `effectiveFrom` (the one it would follow), the impact on the scenario corpus, and a replay of the journal.',
    problems: {
      409: 'X_RELEASE_NAME_TAKEN: a release or draft has the name.',
      422: 'X_RULES_REFUSED: the edited rules have problems.',
    },
    responses: { 201: json('The draft, in review, with its evidence.', DraftShown) },
    handle: async ({ request, params, body, service, client }) => {
      const decision = decisionOf(service.engine, params.decision);
      const { name, effectiveFrom, reason, journal, ...edit } = parseRequest(DraftProposal, body);
      await assertNameFree(service, name);
      const x = edited(studio, service.engine, decision, edit);
      if (!x.rules) throw rulesRefused(x.problems);
      const made = await draftWithEvidence(request, studio, service, { name, effectiveFrom, reason, journal, decision, author: await client() }, x.rules);
      return { body: shown(made.draft, made.version) };
    },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/drafts',
    ...studioEntry,
    summary: 'Draft a rule release from rule files',
    access: 'analyst',
    request: { schema: DraftOfFiles, required: true },
    description:
      'Every rule file as given (`signalbox release propose` sends a rules folder) becomes a draft of a release named `name`, as a table edit does: in review, with its evidence, changing nothing for callers until another analyst approves it.',
    problems: {
      409: 'X_RELEASE_NAME_TAKEN: a release or draft has the name.',
      422: 'X_RULES_REFUSED: the rule files have problems (`signalbox check` says which).',
    },
    responses: { 201: json('The draft, in review, with its evidence.', DraftShown) },
    handle: async ({ request, body, service, client }) => {
      const { name, effectiveFrom, reason, journal, files } = parseRequest(DraftOfFiles, body);
      await assertNameFree(service, name);
      const { rules, problems } = compileRelease({ name, files });
      if (!rules) throw new RuleViolation('X_RULES_REFUSED', { count: problems.length }, [{ requestPointer: '#/files' }]);
      const made = await draftWithEvidence(request, studio, service, { name, effectiveFrom, reason, journal, author: await client() }, rules);
      return { body: shown(made.draft, made.version) };
    },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/drafts',
    ...studioEntry,
    summary: 'The drafts of rule releases',
    access: 'analyst',
    description: 'Every draft, in review or decided, the latest first, without its evidence.',
    responses: { 200: json('The drafts.', z.object({ drafts: z.array(DraftListed) })) },
    handle: async ({ service }) => ({
      body: {
        drafts: (await draftsOf(service)).map(({ draft, version }) => {
          const { evidence: _evidence, ...listed } = shown(draft, version);
          return listed;
        }),
      },
    }),
  }),
  operation({
    method: 'GET',
    path: '/studio/api/drafts/{draft}',
    ...studioEntry,
    summary: 'A draft with its evidence',
    access: 'analyst',
    responses: { 200: json('The draft, its history and its evidence.', DraftShown) },
    handle: async ({ params, service }) => {
      const { draft, version } = await draftOf(service, params.draft);
      return { body: shown(draft, version) };
    },
  }),
  ...(['approve', 'reject', 'withdraw'] as const).map((step: DraftDecision) =>
    operation({
      method: 'POST',
      path: `/studio/api/drafts/{draft}/${step}`,
      ...studioEntry,
      summary: { approve: 'Approve a draft', reject: 'Reject a draft', withdraw: 'Withdraw a draft' }[step],
      access: 'analyst',
      request: { schema: Decided[step], required: step === 'reject' },
      description: {
        approve:
          'By an analyst with the `approver` scope (rules/clients.yaml, and on the token) who is not its author. The draft becomes a rule release in the store, in force from its instant on every server sharing the store (the others read it within `releasePollInterval`).',
        reject: 'By an analyst with the `approver` scope who is not its author; the comment, required, says why.',
        withdraw: 'By its author.',
      }[step],
      problems: {
        403: 'FORBIDDEN: not an approver (in rules/clients.yaml or on the token), or (withdraw) not the author; X_DRAFT_OWN: the author approves or rejects.',
        409: 'X_DRAFT_DECIDED: the draft is no longer in review; X_RELEASE_NAME_TAKEN: a release took its name meanwhile.',
      },
      responses: { 200: json('The draft as decided.', DraftShown) },
      handle: async ({ request, params, body, service }) => {
        const { comment } = parseRequest(Decided[step], body ?? {});
        const { client, scopes } = await request.server.tokenHolder(request);
        const made = await decide(service, params.draft, step, { client, scopes, at: new Date(), ...(comment ? { comment } : {}) });
        return { body: shown(made.draft, made.version) };
      },
    }),
  ),
  operation({
    method: 'GET',
    path: '/studio/api/releases',
    ...studioEntry,
    summary: 'The rule releases: history and schedule',
    access: 'analyst',
    description:
      'Every release in the store, in the order they come into force, with who made it, who approved it and why; `inForce` names the one deciding now on this server (null: the rules it started with).',
    responses: { 200: json('The releases.', ReleaseList) },
    handle: async ({ service }) => {
      const inForce = service.releases.at(service.clock.now()).release ?? null;
      const releases = (await service.store.releases()).sort(inForceOrder).map(({ files: _files, ...r }) => r);
      return { body: { inForce, releases } };
    },
  }),
];
