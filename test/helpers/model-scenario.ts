import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Document, isMap, isSeq, YAMLMap } from 'yaml';
import { START } from './model.ts';
import type { Recorded } from './model-system.ts';

/**
 * Writes a recorded command sequence as a scenario file (docs/scenarios.md): the steps as
 * they were sent, `${var}` references and `save:` for ids, `advance:` for time, and as `expect` what the
 * model predicted. Self-contained (trips inline, no `uses:`), so it runs from wherever it is copied:
 * `npx signalbox test <file>`.
 *
 * The sweep's reads are left out, except the one that failed; the step where the property broke carries
 * the failure as a comment (invariants such as "the parts add up" have no matcher to say them).
 */
export interface ScenarioOptions {
  name: string;
  description?: string;
  /** The message of the failure, shown above the last step. */
  failure?: string;
  tags?: string[];
}

export function scenarioYaml(recorded: readonly Recorded[], options: ScenarioOptions): string {
  const last = recorded.length - 1;
  const kept = recorded.filter((r, i) => !r.observational || (i === last && options.failure !== undefined));
  const scenario = {
    name: options.name,
    ...(options.description ? { description: options.description } : {}),
    tags: options.tags ?? ['property'],
    client: 'demo-reseller',
    salesApplication: 'WEB_SE',
    language: 'en-GB',
    clock: START,
    steps: kept.map((r) => r.step),
  };
  // No anchors and aliases: a step's body reads on its own even where the harness reused an object.
  const doc = new Document(scenario, { aliasDuplicateObjects: false });
  doc.commentBefore = ' yaml-language-server: $schema=../schemas/scenario.schema.json';
  const steps = doc.get('steps');
  if (isSeq(steps)) {
    for (const item of steps.items) {
      if (!isMap(item)) continue;
      // Expectations, saves and headers on one line each.
      for (const key of ['expect', 'save', 'headers']) flow(item.get(key));
      const body = item.get('body');
      // A body's fields one per line, each trip, passenger or nested object on its line.
      for (const pair of isMap(body) ? body.items : []) {
        if (isSeq(pair.value)) pair.value.items.forEach(flow);
        else flow(pair.value);
      }
    }
    const failing = steps.items[steps.items.length - 1];
    if (options.failure !== undefined && failing) {
      (failing as YAMLMap).commentBefore = ` The property failed at this step:\n${options.failure
        .split('\n')
        .map((l) => ` ${l}`)
        .join('\n')}`;
    }
  }
  return doc.toString({ lineWidth: 0 });
}

function flow(node: unknown) {
  if (isMap(node) || isSeq(node)) node.flow = true;
}

export function writeScenario(file: string, recorded: readonly Recorded[], options: ScenarioOptions): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, scenarioYaml(recorded, options));
  return file;
}
