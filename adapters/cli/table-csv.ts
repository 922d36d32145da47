import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultRulesDir, factCatalogue, loadRules, readRuleSources, type DecisionName } from '../../engine/index.ts';
import type { PlacedProblem } from '../http/openapi/studio-schemas.ts';
import { rowsOfCsv, tableCsv } from '../studio/table-csv.ts';
import { checkEdited, editedText, tableOf } from '../studio/tables.ts';

/**
 * `signalbox table export DECISION > x.csv` and `signalbox table import DECISION x.csv`: a decision table through a
 * spreadsheet. The import writes the file as a save from the studio does (rows patched in place, comments and layout
 * kept), and only when `check` finds no problem in the whole rule set with it.
 */
const USAGE = 'usage: signalbox table export DECISION [--rules DIR]\n       signalbox table import DECISION FILE.csv [--rules DIR]\n';

const say = (problems: readonly PlacedProblem[]) => process.stdout.write(`${problems.map((p) => `${p.at}: ${p.message}`).join('\n')}\n`);

export async function tableCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { rules: { type: 'string' } } });
  const [action, name, csvFile] = positionals;
  if ((action !== 'export' && action !== 'import') || !name || (action === 'import' && !csvFile)) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (!Object.hasOwn(factCatalogue, name)) {
    process.stderr.write(`no decision "${name}": ${Object.keys(factCatalogue).join(', ')}\n`);
    return 2;
  }
  const decision = name as DecisionName;
  const dir = values.rules ?? defaultRulesDir();
  const rules = loadRules(dir);
  const { file } = rules.decisions[decision];
  const path = join(dir, basename(file));
  const text = readFileSync(path, 'utf8');
  const table = tableOf(rules, decision, text);
  if (action === 'export') {
    process.stdout.write(tableCsv(table));
    return 0;
  }
  const read = rowsOfCsv(table, readFileSync(csvFile!, 'utf8'));
  if (read.problems.length > 0) return (say(read.problems), 1);
  const next = editedText(file, text, { rows: read.rows });
  const checked = next.problems.length > 0 ? next : checkEdited(readRuleSources(dir), file, next.text);
  if (checked.problems.length > 0) return (say(checked.problems), 1);
  if (next.text === text) {
    process.stdout.write(`${path}: nothing changed\n`);
    return 0;
  }
  writeFileSync(path, next.text);
  process.stdout.write(`${path}: ${read.rows.length} rows written, check finds no problems\n`);
  return 0;
}
