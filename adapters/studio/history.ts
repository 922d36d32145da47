import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rules folder's `CHANGES.md`: one entry per save from the studio, newest last, saying who saved which file when,
 * the scenario expectations the change updated, and why it was saved with scenario steps failing. It sits beside the
 * rule files and goes into version control with them; the rule loader reads only `.yaml` files, so it is not a rule.
 */
export interface ChangeRecord {
  at: Date;
  client: string;
  file: string;
  scenarios: readonly string[];
  failing: number;
  reason?: string;
}

export function recordChange(rulesDir: string, change: ChangeRecord): void {
  const lines = [
    `## ${change.at.toISOString()} · ${change.file} · ${change.client}`,
    '',
    ...(change.scenarios.length ? [`Scenario expectations updated: ${change.scenarios.join(', ')}.`, ''] : []),
    ...(change.failing > 0 ? [`Saved with ${change.failing} scenario step${change.failing === 1 ? '' : 's'} failing.`, ''] : []),
    ...(change.reason ? ['Reason:', '', ...change.reason.split('\n').map((l) => `> ${l}`), ''] : []),
  ];
  const file = join(rulesDir, 'CHANGES.md');
  const heading = existsSync(file) ? '' : '# Rule changes saved from the studio\n\n';
  appendFileSync(file, `${heading}${lines.join('\n')}\n`);
}
