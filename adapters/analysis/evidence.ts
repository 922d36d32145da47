import type { RuleSet } from '../../engine/index.ts';
import type { JournalRecord } from '../http/journal-file.ts';
import type { Evidence } from '../http/openapi/studio-release-schemas.ts';
import { impactOf } from './impact.ts';
import { replayJournal } from './replay.ts';
import { ruleFilesDiff } from './rule-files-diff.ts';

export interface EvidenceInput {
  against: { name: string; rules: RuleSet };
  draft: { name: string; rules: RuleSet };
  /** The scenario corpus and its fixtures, as the studio runs them. */
  scenarios: string[];
  fixtures: string;
  secrets: Record<string, string>;
  now: Date;
  /** The requests to replay, oldest first; undefined when the server keeps no journal and none was given. */
  journal: readonly JournalRecord[] | undefined;
  examples: number;
}

/**
 * What a reviewer sees before approving a draft of a rule release (docs/releases.md, "Four eyes"): the rule files'
 * diff, what the scenario corpus says of the edit, and what the latest real requests would have been answered under it.
 */
export async function evidenceOf(input: EvidenceInput): Promise<Evidence> {
  const { against, draft } = input;
  const impact = await impactOf(against.rules, draft.rules, input.scenarios, { secrets: input.secrets, fixtures: input.fixtures, now: input.now });
  const replay =
    input.journal && input.journal.length > 0
      ? await replayJournal(input.journal, against.rules, draft.rules, { names: { a: against.name, b: draft.name }, examples: input.examples })
      : null;
  return {
    against: against.name,
    diff: ruleFilesDiff(against.rules.sources, draft.rules.sources),
    impact,
    replay,
    ...(replay === null ? { noReplay: input.journal ? ('empty-journal' as const) : ('no-journal' as const) } : {}),
  };
}
