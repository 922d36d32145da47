import { parseArgs } from 'node:util';
import { defaultRulesDir, RuleFileError } from '../../engine/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { painter } from './colour.ts';
import { impactOf, type Impact } from '../analysis/impact.ts';
import { ruleSetAt } from '../analysis/rule-set-at.ts';

const money = (minor: number) => `${minor < 0 ? '−' : '+'}${(Math.abs(minor) / 100).toFixed(2)}`;
const facts = (f: Record<string, unknown>) =>
  Object.entries(f)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');

function renderImpact(x: Impact, paint = painter(process.stdout)): string {
  const out: string[] = [];
  for (const d of x.decisions) {
    out.push(
      `${paint('bold', d.decision)}: row ${d.from.row ?? 'none'} ${JSON.stringify(d.from.outcome)}  →  row ${d.to.row ?? 'none'} ${JSON.stringify(d.to.outcome)}`,
    );
    for (const c of d.cases.slice(0, 3)) out.push(`    ${facts(c)}`);
    if (d.cases.length > 3) out.push(`    … and ${d.cases.length - 3} more cases`);
  }
  for (const t of x.texts)
    out.push(`${paint('bold', t.decision)}: row ${t.row ?? 'none'} says ${t.key} otherwise: ${JSON.stringify(t.from)}  →  ${JSON.stringify(t.to)}`);
  if (x.decisions.length + x.texts.length > 0) out.push('');
  for (const p of x.prices) {
    const difference = (p.to ?? 0) - (p.from ?? 0);
    out.push(
      `${p.trip} ${p.offer} (${p.summary}), ${p.passengers}: ${p.from === null ? '-' : (p.from / 100).toFixed(2)} → ${p.to === null ? '-' : (p.to / 100).toFixed(2)} ${p.currency} (${paint(difference < 0 ? 'green' : 'red', money(difference))})`,
    );
  }
  if (x.prices.length > 0) out.push('');
  for (const s of x.scenarios) {
    const what = [
      s.missing ? `not run on the ${s.missing.on} rules: the scenario stopped at "${s.missing.failedStep ?? 'an earlier step'}"` : '',
      s.verdict ? `${s.verdict.from} → ${s.verdict.to}` : '',
      s.status ? `status ${s.status.from} → ${s.status.to}` : '',
      s.code ? `code ${s.code.from ?? '-'} → ${s.code.to ?? '-'}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(`${s.at ?? s.scenario} ${JSON.stringify(s.step)}${what ? `: ${what}` : ''}`);
    for (const m of s.mismatches ?? [])
      out.push(`    ${m.path}: expected ${JSON.stringify(m.expected)}, now ${JSON.stringify(m.actual)}${m.at ? ` (${m.at})` : ''}`);
    for (const p of s.prices)
      out.push(`    ${p.at}: ${p.from ?? '-'} → ${p.to ?? '-'} ${p.currency} (${paint(p.difference < 0 ? 'green' : 'red', money(p.difference))})`);
  }
  const { changedRows, changedCases, changedTexts, changedOfferPrices, changedSteps, changedPrices, failingSteps, scenarios } = x.summary;
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  out.push(
    changedRows + changedTexts + changedOfferPrices + changedSteps === 0
      ? 'no change: every boundary case, offer price and scenario step answers as before'
      : `this edit changes ${n(changedRows, 'decision outcome')} (${n(changedCases, 'boundary case')}), ${n(changedTexts, 'text')}, ${n(changedOfferPrices, 'offer price')}, and ${n(changedPrices, 'price')} in ${n(changedSteps, 'step')} of ${n(scenarios, 'scenario')}; ${n(failingSteps, 'step')} would fail`,
  );
  return out.join('\n') + '\n';
}

/** `signalbox diff --rules OLD [--against NEW] [--json] [--scenarios DIR] [--fixtures DIR]`: exit 1 when anything changes. */
export async function rulesDiff(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      rules: { type: 'string' },
      against: { type: 'string' },
      json: { type: 'boolean', default: false },
      scenarios: { type: 'string', multiple: true },
      fixtures: { type: 'string' },
    },
  });
  if (!values.rules) {
    process.stderr.write(
      'usage: signalbox diff --rules OLD [--against NEW] [--json] [--scenarios DIR] [--fixtures DIR]   (OLD, NEW: a folder or a git revision; NEW defaults to rules/)\n',
    );
    return 2;
  }
  let impact: Impact;
  try {
    const old = ruleSetAt(values.rules);
    const next = ruleSetAt(values.against ?? defaultRulesDir());
    impact = await impactOf(old, next, values.scenarios ?? ['scenarios'], { secrets: DEMO_SECRETS, fixtures: values.fixtures ?? 'scenarios/fixtures' });
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stderr.write(`${e.problems.join('\n')}\n`);
    return 2;
  }
  process.stdout.write(values.json ? `${JSON.stringify(impact, null, 2)}\n` : renderImpact(impact));
  const { changedRows, changedTexts, changedOfferPrices, changedSteps } = impact.summary;
  return changedRows + changedTexts + changedOfferPrices + changedSteps > 0 ? 1 : 0;
}
