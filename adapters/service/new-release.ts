import { basename } from 'node:path';
import { RuleRelease, type RuleSource } from '../../engine/index.ts';
import { compileRelease } from './releases.ts';

/** What a release is made of besides its rule files (docs/releases.md). */
export interface ReleaseMeta {
  name: string;
  effectiveFrom: string;
  createdBy: string;
  createdOn: Date;
  reason?: string;
  /** Four eyes (a studio draft): who approved it, and the draft's name. */
  approvedBy?: string;
  draft?: string;
}

/**
 * A new release of these rule files, as the store keeps it: its fields checked by the release's schema and its rules
 * compiled as `signalbox check` compiles them; else the problems, `file:line:col: message` for a rule file.
 */
export function newRelease(meta: ReleaseMeta, sources: readonly RuleSource[]): { release: RuleRelease } | { problems: readonly string[] } {
  const files = Object.fromEntries(sources.map((s) => [basename(s.file), s.text]));
  const parsed = RuleRelease.safeParse({
    name: meta.name,
    effectiveFrom: meta.effectiveFrom,
    createdOn: meta.createdOn.toISOString(),
    createdBy: meta.createdBy,
    ...(meta.reason !== undefined ? { reason: meta.reason } : {}),
    ...(meta.approvedBy !== undefined ? { approvedBy: meta.approvedBy } : {}),
    ...(meta.draft !== undefined ? { draft: meta.draft } : {}),
    files,
  });
  if (!parsed.success) return { problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'release'}: ${i.message}`) };
  const { problems } = compileRelease(parsed.data);
  return problems.length > 0 ? { problems } : { release: parsed.data };
}
