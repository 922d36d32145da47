import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readRuleSources } from '../../engine/index.ts';
import { compileRelease } from '../service/releases.ts';
import { painter } from './colour.ts';

/**
 * Four eyes from a terminal (docs/releases.md): `signalbox release propose|drafts|show|approve|reject|withdraw`
 * talk to a running server's studio API as an analyst, so that who drafts and who approves is the server's to check
 * (the client's token), as it is in the studio. The secret comes from the environment, never from the command line.
 */
export const REVIEW_ACTIONS = ['propose', 'drafts', 'show', 'approve', 'reject', 'withdraw'] as const;
type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const REVIEW_USAGE = `       signalbox release propose NAME --effective-from INSTANT --reason TEXT [--rules DIR] [--journal FILE]
       signalbox release drafts [--json] | show NAME [--json]
       signalbox release approve NAME [--comment TEXT] | reject NAME --comment TEXT | withdraw NAME
  propose … withdraw: on the server --server URL (default http://127.0.0.1:8080) as the analyst --client ID
  (default $SIGNALBOX_CLIENT_ID), whose secret is $SIGNALBOX_CLIENT_SECRET
`;

interface Problem {
  code?: string;
  detail?: string;
  title?: string;
}

/** A call of the server's studio API with an analyst's token; a Problem answer is printed and gives exit 1. */
async function studioApi(server: string, token: string, method: string, path: string, body?: unknown): Promise<{ ok: boolean; body: unknown }> {
  const res = await fetch(new URL(path, server), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const answer: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const p = (answer ?? {}) as Problem;
    process.stderr.write(`signalbox release: ${res.status} ${p.code ?? ''}: ${p.detail ?? p.title ?? res.statusText}\n`);
  }
  return { ok: res.ok, body: answer };
}

/** A token with `scope` (`analyst`, and `approver` to approve or reject a draft); the refusal is printed. */
async function analystToken(server: string, client: string, secret: string, scope: string): Promise<string | undefined> {
  const res = await fetch(new URL('/oauth2/token', server), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret, scope }),
  });
  const answer = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (answer.access_token) return answer.access_token;
  process.stderr.write(`signalbox release: no token with scope "${scope}" for ${client}: ${answer.error ?? res.status} ${answer.error_description ?? ''}\n`);
  return undefined;
}

interface DraftAnswer {
  name: string;
  state: string;
  author: string;
  effectiveFrom: string;
  reason: string;
  history: Array<{ action: string; by: string; at: string; comment?: string }>;
  evidence?: {
    against: string;
    diff: Array<{ file: string; patch: string }>;
    impact: { summary: Record<string, number> };
    replay: { journal: { replayed: number }; changed: number; changes: Record<string, { count: number }> } | null;
    noReplay?: string;
  };
}

/** A draft as a reviewer reads it in a terminal: its history, then its evidence. */
function printDraft(d: DraftAnswer, paint: ReturnType<typeof painter>): void {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(`${paint('bold', d.name)}  ${d.state}  in force from ${d.effectiveFrom}  by ${d.author}: "${d.reason}"`);
  for (const h of d.history) out(`  ${h.at}  ${h.action} by ${h.by}${h.comment ? `: "${h.comment}"` : ''}`);
  const e = d.evidence;
  if (!e) return;
  out();
  out(paint('bold', `Against ${e.against}:`));
  for (const f of e.diff)
    for (const line of f.patch.split('\n'))
      out(line.startsWith('+') && !line.startsWith('+++') ? paint('green', line) : line.startsWith('-') && !line.startsWith('---') ? paint('red', line) : line);
  const s = e.impact.summary;
  out(
    `Scenario impact: ${s['changedRows']} rows decide otherwise (${s['changedCases']} cases), ${s['changedOfferPrices']} probe prices, ${s['changedSteps']} steps change (${s['failingSteps']} would fail)`,
  );
  if (e.replay)
    out(
      `Replay: ${e.replay.journal.replayed} requests, ${e.replay.changed} answer differently (status ${e.replay.changes['status']!.count}, code ${e.replay.changes['code']!.count}, price ${e.replay.changes['price']!.count})`,
    );
  else out(`Replay: none (${e.noReplay})`);
}

export async function releaseReview(action: ReviewAction, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      server: { type: 'string', default: 'http://127.0.0.1:8080' },
      client: { type: 'string' },
      'effective-from': { type: 'string' },
      reason: { type: 'string' },
      rules: { type: 'string' },
      journal: { type: 'string' },
      comment: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [name, ...extra] = positionals;
  const usable =
    extra.length === 0 &&
    (action === 'drafts'
      ? name === undefined
      : name !== undefined &&
        (action !== 'propose' || (values['effective-from'] !== undefined && values.reason !== undefined)) &&
        (action !== 'reject' || values.comment !== undefined));
  const client = values.client ?? process.env['SIGNALBOX_CLIENT_ID'];
  const secret = process.env['SIGNALBOX_CLIENT_SECRET'];
  if (!usable || !client || !secret) {
    if (usable)
      process.stderr.write('signalbox release: give the analyst as --client ID (or $SIGNALBOX_CLIENT_ID) and its secret as $SIGNALBOX_CLIENT_SECRET\n');
    process.stderr.write(`usage: ${REVIEW_USAGE.trimStart()}`);
    return 2;
  }
  let body: unknown;
  if (action === 'propose') {
    const files = Object.fromEntries(readRuleSources(values.rules).map((s) => [basename(s.file), s.text]));
    // Checked here first: the server would only count the problems.
    const { problems } = compileRelease({ name: name!, files });
    if (problems.length > 0) {
      process.stderr.write(`${problems.join('\n')}\nsignalbox release: not proposed.\n`);
      return 1;
    }
    const journal = values.journal === undefined ? {} : { journal: readFileSync(values.journal, 'utf8') };
    body = { name, effectiveFrom: values['effective-from'], reason: values.reason, files, ...journal };
  } else if (action === 'approve' || action === 'reject' || action === 'withdraw') body = values.comment ? { comment: values.comment } : {};
  const token = await analystToken(values.server, client, secret, action === 'approve' || action === 'reject' ? 'analyst approver' : 'analyst');
  if (!token) return 1;
  const draft = (n: string) => `/studio/api/drafts/${encodeURIComponent(n)}`;
  const [method, path] =
    action === 'propose'
      ? ['POST', '/studio/api/drafts']
      : action === 'drafts'
        ? ['GET', '/studio/api/drafts']
        : action === 'show'
          ? ['GET', draft(name!)]
          : ['POST', `${draft(name!)}/${action}`];
  const answer = await studioApi(values.server, token, method, path, body);
  if (!answer.ok) return 1;
  if (values.json) process.stdout.write(`${JSON.stringify(answer.body, null, 2)}\n`);
  else if (action === 'drafts') {
    const { drafts } = answer.body as { drafts: DraftAnswer[] };
    if (drafts.length === 0) process.stdout.write('no drafts\n');
    for (const d of drafts) process.stdout.write(`${d.name}  ${d.state}  in force from ${d.effectiveFrom}  by ${d.author}: "${d.reason}"\n`);
  } else printDraft(answer.body as DraftAnswer, painter(process.stdout));
  return 0;
}
