/**
 * How many of the project's files one refund confirmation crosses: the source files (node_modules left out) at
 * least one of whose functions runs while an in-process server answers
 * PATCH /v3/bookings/{bookingId}/refund-offers/{refundOfferId}, measured with V8's precise coverage (call counts).
 *
 *   tsx bench/files-crossed.ts [ROOT] [--list]
 *
 * ROOT is a source tree (default: this one), e.g. a `git worktree` of an older revision, so that two revisions are
 * measured the same way. A warm-up books and refunds one booking first, so that lazy one-off work (compiled
 * validators, cached rule lookups, the first token) is not counted; then a second booking is made and refunded,
 * and only the PATCH that confirms its refund offer is measured. With `--list`, the files are printed too.
 */
import { Session } from 'node:inspector';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bookingBody, offersBody, tokenForm } from './fixtures.ts';

const args = process.argv.slice(2);
const list = args.includes('--list');
const root = resolve(args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('..', import.meta.url)));

const load = (path: string) => import(pathToFileURL(resolve(root, path)).href);
const [{ createEngine }, { buildServer }, { memoryStore }, { sequentialIds }] = await Promise.all([
  load('engine/index.ts'),
  load('adapters/http/server.ts'),
  load('adapters/store/memory.ts'),
  load('adapters/service/ids.ts'),
]);

const app = await buildServer({ engine: createEngine({ rulesDir: resolve(root, 'rules') }), store: memoryStore(), ids: sequentialIds(), sandbox: true });
const token = (
  await app.inject({ method: 'POST', url: '/oauth2/token', payload: tokenForm(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
).json().access_token as string;
const headers = {
  authorization: `Bearer ${token}`,
  requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'BENCH' })).toString('base64'),
  'content-type': 'application/json',
};
/** A request of the demo reseller, its answer's body parsed as `T` (what the fixtures ask is known to succeed). */
const send = async <T = unknown>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<T> => {
  const res = await app.inject({ method, url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
};

/** A confirmed booking with a refund offer on all its tickets: the booking's id and the offer's. */
async function refundOffered(ref: string): Promise<{ bookingId: string; refundOfferId: string }> {
  const offers = await send<{ offers: Array<{ offerId: string }> }>('POST', '/v3/offers', offersBody(1));
  const booked = await send<{ booking: { id: string } }>('POST', '/v3/bookings', bookingBody(offers.offers[0]!.offerId, 1, ref));
  const bookingId = booked.booking.id;
  await send('POST', `/v3/bookings/${bookingId}/fulfillment`);
  const read = await send<{ booking: { fulfillments: Array<{ id: string }> } }>('GET', `/v3/bookings/${bookingId}`);
  const offered = await send<{ refundOffers: Array<{ id: string }> }>('POST', `/v3/bookings/${bookingId}/refund-offers`, {
    fulfillmentIds: read.booking.fulfillments.map((f) => f.id),
  });
  return { bookingId, refundOfferId: offered.refundOffers[0]!.id };
}
const confirm = ({ bookingId, refundOfferId }: { bookingId: string; refundOfferId: string }) =>
  send('PATCH', `/v3/bookings/${bookingId}/refund-offers/${refundOfferId}`, { status: 'CONFIRMED' });

await confirm(await refundOffered('warm-up'));
const measured = await refundOffered('measured');

const projectFile = (url: string) =>
  url.startsWith(pathToFileURL(root).href) && !url.includes('/node_modules/') && !url.includes('/bench/') ? relative(root, fileURLToPath(url)) : undefined;

const session = new Session();
session.connect();
const post = <T = unknown>(method: string, params?: object) =>
  new Promise<T>((done, fail) => session.post(method, params, (error, result) => (error ? fail(error) : done(result as T))));

// The way in: the project files on the call stack, await boundaries included, when the refund is decided
// (engine/aftersales/refund.ts `confirmRefundOffer`, where it has been since before the route table).
const scripts = new Map<string, string>();
session.on('Debugger.scriptParsed', (m) => scripts.set(m.params.scriptId, m.params.url));
let wayIn: string[] = [];
session.on('Debugger.paused', (m) => {
  const frames = [...m.params.callFrames.map((f) => f.location.scriptId)];
  for (let a = m.params.asyncStackTrace; a; a = a.parent) frames.push(...a.callFrames.map((f) => f.scriptId));
  wayIn = [...new Set(frames.map((id) => projectFile(scripts.get(id) ?? '')).filter((f) => f !== undefined))];
  session.post('Debugger.resume');
});
await post('Debugger.enable');
await post('Debugger.setAsyncCallStackDepth', { maxDepth: 64 });
const { confirmRefundOffer } = await load('engine/aftersales/refund.ts');
(globalThis as { refundDecision?: unknown }).refundDecision = confirmRefundOffer;
const { result: decision } = await post<{ result: { objectId: string } }>('Runtime.evaluate', { expression: 'globalThis.refundDecision' });
await post('Debugger.setBreakpointOnFunctionCall', { objectId: decision.objectId });

// Everything: with call counts, taking the coverage resets them, so what the second take reports ran in between.
await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await post('Profiler.takePreciseCoverage');
await confirm(measured);
const { result } = await post<{ result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }> }>('Profiler.takePreciseCoverage');
await post('Profiler.stopPreciseCoverage');
await post('Debugger.disable');
session.disconnect();
await app.close();

const files = result
  .filter((script) => script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
  .map((script) => projectFile(script.url))
  .filter((f) => f !== undefined)
  .sort();
const operation = 'PATCH /v3/bookings/{bookingId}/refund-offers/{refundOfferId}';
console.log(`${operation}: ${files.length} project files run, ${wayIn.length} on the way from the route to the refund's decision`);
if (list) {
  console.log('run:');
  for (const f of files) console.log(`  ${f}`);
  console.log('on the way in, outermost first:');
  for (const f of wayIn.toReversed()) console.log(`  ${f}`);
}
