import { z } from 'zod';
import { RuleRelease } from '../../../engine/model/osdm/index.ts';
import { ReplayReport } from './replay-report.ts';
import { ImpactReport } from './studio-schemas.ts';

/**
 * The shapes of four eyes on rule releases (docs/releases.md): a draft with its evidence, as the store keeps it and
 * the studio answers it, and the list of releases. Here, beside the studio's other shapes, so that the page's script
 * reads the same types the endpoints answer.
 */

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

const DRAFT_STATES = ['IN_REVIEW', 'APPROVED', 'REJECTED', 'WITHDRAWN'] as const;

const DraftEvent = z.object({
  action: z
    .enum(['PROPOSED', 'APPROVED', 'REJECTED', 'WITHDRAWN', 'RETURNED'])
    .describe('RETURNED: approved, but the release could not be made (its name was taken meanwhile): back in review.'),
  by: z.string().describe('The analyst (client id).'),
  at: z.string().describe('When, on the wall clock (a sandbox\u2019s clock is for the requests it decides, not for who did what).'),
  comment: z.string().optional(),
});

/** A draft as the store keeps it: `name` is also its id, and the release's name once approved. */
export const RuleDraft = z.object({
  name: RuleRelease.shape.name,
  effectiveFrom: RuleRelease.shape.effectiveFrom,
  reason: z.string().describe('Why the rules change: kept with the release.'),
  decision: z.string().optional().describe('The decision table the draft edits; absent for a draft of rule files (`signalbox release propose`).'),
  author: z.string(),
  state: z.enum(DRAFT_STATES),
  history: z.array(DraftEvent).describe('Every step, oldest first.'),
  evidence: Evidence,
  files: RuleRelease.shape.files.describe('Every rule file as the release will hold it.'),
});
export type RuleDraft = z.infer<typeof RuleDraft>;

/** What the studio answers of a draft: everything but the rule files (the evidence's diff shows what changes). */
export const DraftShown = RuleDraft.omit({ files: true }).extend({ version: z.number().int().describe('Changes with every step.') });
export type DraftShown = z.infer<typeof DraftShown>;
/** A draft in a list: without its evidence. */
export const DraftListed = DraftShown.omit({ evidence: true });
export type DraftListed = z.infer<typeof DraftListed>;

/** The releases in the store (GET /studio/api/releases): the schedule and the history. */
export const ReleaseList = z.object({
  inForce: z.string().nullable().describe('The release deciding now on this server; null: the rules it started with.'),
  releases: z.array(RuleRelease.omit({ files: true })),
});
export type ReleaseList = z.infer<typeof ReleaseList>;
