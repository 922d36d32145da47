import { z } from 'zod';
import type { RuleSet } from '../../engine/index.ts';
import type { JournalRecord } from '../http/journal-file.ts';
import { ImpactReport } from '../http/openapi/studio-schemas.ts';
import { impactOf } from './impact.ts';
import { replayJournal } from './replay.ts';
import { ReplayReport } from './replay-report.ts';
import { ruleFilesDiff } from './rule-files-diff.ts';

/**
 * What a reviewer sees before approving a draft of a rule release, and what is kept with the release
 * (docs/releases.md, "Four eyes"): the rule files' diff, what the scenario corpus says of the edit, and what the
 * latest real requests would have been answered under it.
 */
export const Evidence = z.object({
  against: z.string().describe('The rules the draft is compared with: the release in force when it was drafted, or `rules/` (the working copy).'),
  diff: z
    .array(
      z.object({ file: z.string(), change: z.enum(['changed', 'added', 'removed']), patch: z.string().describe('A unified diff, as `git diff` shows it.') }),
    )
    .describe('Each rule file that differs.'),
  impact: ImpactReport.describe(
    'As `signalbox diff` and the studio\u2019s preview report it: decisions, offer prices and the scenario corpus, failing steps included.',
  ),
  replay: ReplayReport.nullable().describe(
    'The journal replayed on both rule sets at its instants, as `signalbox replay` does; null when there was none to replay (`noReplay` says why).',
  ),
  noReplay: z
    .enum(['no-journal', 'empty-journal'])
    .optional()
    .describe('no-journal: the server keeps none (a sandbox does) and no journal file came with the draft; empty-journal: it holds no request yet.'),
});
export type Evidence = z.infer<typeof Evidence>;

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
