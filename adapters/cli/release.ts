import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readRuleSources, type RuleRelease } from '../../engine/index.ts';
import { newRelease } from '../service/new-release.ts';
import { inForceOrder } from '../service/releases.ts';
import { releaseCoverage, COVERAGE_USAGE } from './release-coverage.ts';
import { releaseReview, REVIEW_ACTIONS, REVIEW_USAGE } from './release-review.ts';
import { openStore } from '../store/open.ts';
import { ReleaseNameTaken, type Store } from '../store/store.ts';

/**
 * `signalbox release create NAME --effective-from INSTANT` and `signalbox release list`: rule releases in a store
 * (docs/releases.md). A release is `rules/` as it is now, immutable, in force from its instant on every server that
 * shares the store. Drafting one for another analyst to approve goes through a server (release-review.ts).
 */
const USAGE = `usage: signalbox release create NAME --effective-from INSTANT [--rules DIR] [--store URL] [--reason TEXT]
       signalbox release list [--store URL] [--json]
       signalbox release export NAME --out DIR [--store URL]
${COVERAGE_USAGE}${REVIEW_USAGE}  INSTANT: an ISO 8601 date-time with offset, e.g. 2026-12-13T00:00+01:00
  --store: as serve's (default sqlite:./data/signalbox.db)
`;

export async function releaseCommand(args: string[]): Promise<number> {
  const review = REVIEW_ACTIONS.find((a) => a === args[0]);
  if (review) return releaseReview(review, args.slice(1));
  if (args[0] === 'coverage') return releaseCoverage(args.slice(1));
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'effective-from': { type: 'string' },
      rules: { type: 'string' },
      store: { type: 'string', default: 'sqlite:./data/signalbox.db' },
      reason: { type: 'string' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  const [action, name] = positionals;
  if (action === 'create' && name && values['effective-from']) {
    const made = newRelease(
      {
        name,
        effectiveFrom: values['effective-from'],
        createdBy: userInfo().username,
        createdOn: new Date(),
        ...(values.reason !== undefined ? { reason: values.reason } : {}),
      },
      readRuleSources(values.rules),
    );
    if ('problems' in made) {
      process.stderr.write(`${made.problems.join('\n')}\nsignalbox release: not created.\n`);
      return 1;
    }
    return withStore(values.store, (store) => create(store, made.release));
  }
  if (action === 'list' && !name) return withStore(values.store, (store) => list(store, values.json));
  if (action === 'export' && name && values.out) return withStore(values.store, (store) => exportRelease(store, name, values.out!));
  process.stderr.write(USAGE);
  return 2;
}

async function withStore(spec: string, work: (store: Store) => Promise<number>): Promise<number> {
  const store = await openStore(spec);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function create(store: Store, release: RuleRelease): Promise<number> {
  try {
    await store.putRelease(release);
  } catch (e) {
    if (!(e instanceof ReleaseNameTaken)) throw e;
    process.stderr.write(`signalbox release: ${e.message} (${store.kind}); a release never changes: give the new one another name.\n`);
    return 1;
  }
  const files = Object.keys(release.files).length;
  process.stdout.write(`release ${release.name}: ${files} rule files, in force from ${release.effectiveFrom} (${store.kind})\n`);
  return 0;
}

/** Each release's state at the machine's clock: a sandbox's clock may be elsewhere, so it is a hint. */
function stateOf(sorted: readonly RuleRelease[], i: number, now: number): 'in force' | 'scheduled' | 'superseded' {
  const from = (r: RuleRelease) => Date.parse(r.effectiveFrom);
  if (from(sorted[i]!) > now) return 'scheduled';
  const next = sorted[i + 1];
  return next && from(next) <= now ? 'superseded' : 'in force';
}

async function list(store: Store, json: boolean): Promise<number> {
  const sorted = (await store.releases()).sort(inForceOrder);
  const now = Date.now();
  const rows = sorted.map(({ files, ...r }, i) => ({ ...r, state: stateOf(sorted, i, now), files: Object.keys(files).length }));
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no releases in ${store.kind}: the rules each server started with decide\n`);
    return 0;
  }
  for (const r of rows) {
    process.stdout.write(`${r.name}  ${r.effectiveFrom}  ${r.state}  by ${r.createdBy} on ${r.createdOn}${r.reason ? `  "${r.reason}"` : ''}\n`);
  }
  return 0;
}

/**
 * A release's rule files written into a folder, as `rules/` holds them: every tool that takes `--rules DIR` (test
 * and its --coverage, diff, replay, mutate, check) then works on what a stored release decides.
 */
async function exportRelease(store: Store, name: string, out: string): Promise<number> {
  const release = (await store.releases()).find((r) => r.name === name);
  if (!release) {
    process.stderr.write(`signalbox release: no release named ${name} in ${store.kind}\n`);
    return 1;
  }
  mkdirSync(out, { recursive: true });
  for (const [file, text] of Object.entries(release.files)) writeFileSync(join(out, file), text);
  process.stdout.write(`release ${name}: ${Object.keys(release.files).length} rule files written to ${out}\n`);
  return 0;
}
