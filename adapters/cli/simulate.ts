import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { boundaryCasesOf, createEngine, factCatalogue, RuleFileError, type DecisionName } from '../../engine/index.ts';
import { parseSource } from '../../engine/rules/index.ts';
import { painter } from './colour.ts';
import { table } from './table.ts';
import { casesFromCsv, simulateCases, type SimulatedCase } from '../analysis/simulate.ts';

/** Fact rows from a CSV file (a header row of fact names; numbers and true/false read as such) or a YAML/JSON list. */
function readCases(file: string): Array<Record<string, unknown>> {
  const text = readFileSync(file, 'utf8');
  if (/\.csv$/i.test(file)) return casesFromCsv(text);
  const data = parseSource(file, text).data;
  if (!Array.isArray(data)) throw new RuleFileError([`${file}:1:1: a list of fact rows, one per case`]);
  return data as Array<Record<string, unknown>>;
}

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `signalbox simulate DECISION --cases FILE [--boundaries] [--json] [--rules DIR]`. */
export async function simulate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cases: { type: 'string' },
      boundaries: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      rules: { type: 'string' },
    },
  });
  const [decision] = positionals;
  if (!decision || (!values.cases && !values.boundaries)) {
    process.stderr.write('usage: signalbox simulate <decision> --cases FILE.csv|FILE.yaml [--boundaries] [--json] [--rules DIR]\n');
    return 2;
  }
  if (!(decision in factCatalogue)) {
    process.stderr.write(`there is no decision called ${decision}; the decisions are ${Object.keys(factCatalogue).join(', ')}\n`);
    return 2;
  }
  let results: SimulatedCase[];
  try {
    if (values.cases && !existsSync(values.cases)) throw new RuleFileError([`${values.cases}: no such file`]);
    const engine = createEngine(values.rules ? { rulesDir: values.rules } : {});
    const cases = [...(values.cases ? readCases(values.cases) : []), ...(values.boundaries ? boundaryCasesOf(engine.rules, decision as DecisionName) : [])];
    results = simulateCases(engine, decision, cases);
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stderr.write(`${e.problems.join('\n')}\n`);
    return 1;
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    const paint = painter(process.stdout);
    const facts = [...new Set(results.flatMap((r) => Object.keys(r.facts)))];
    process.stdout.write(
      table(
        ['#', ...facts, 'row', 'outcome'],
        results.map((r, i) => [
          String(i + 1),
          ...facts.map((f) => (f in r.facts ? shown(r.facts[f]) : '')),
          r.row ?? paint('red', 'none'),
          r.problem ? paint('red', r.problem) : shown(r.outcome),
        ]),
      ),
    );
  }
  return results.some((r) => r.problem) ? 1 : 0;
}
