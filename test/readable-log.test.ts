import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { readableLog } from '../adapters/http/readable-log.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, passengers, requestorHeader, trip } from './helpers/server.ts';

/** On a terminal the server logs one readable line per request: method, path, status, time and the Problem code. */
describe('readable request lines', async () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => {
    text += c.toString();
  });
  const app = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'r', logger: { stream: readableLog(out) } });
  afterAll(() => app.close());

  const form = 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret';
  const token = (
    await app.inject({ method: 'POST', url: '/oauth2/token', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  ).json().access_token as string;
  const headers = { authorization: `Bearer ${token}`, requestor: requestorHeader() };
  await app.inject({ method: 'POST', url: '/v3/offers', payload: { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) }, headers });
  await app.inject({
    method: 'POST',
    url: '/v3/offers',
    payload: { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(...Array(10).fill(30)) },
    headers,
  });
  await app.inject({ method: 'GET', url: '/health' });
  const lines = () => text.trimEnd().split('\n');

  it('writes exactly one line per request, no JSON', () => {
    expect(lines()).toHaveLength(4);
    for (const line of lines()) expect(line).not.toMatch(/^\{/);
  });

  it('names the method, path, status, time and, for a Problem, its code', () => {
    expect(lines()[0]).toMatch(/^\d\d:\d\d:\d\d POST \/oauth2\/token → 200 {2}[\d.]+ ms$/);
    expect(lines()[1]).toMatch(/^\d\d:\d\d:\d\d POST \/v3\/offers → 200 {2}[\d.]+ ms$/);
    expect(lines()[2]).toMatch(/^\d\d:\d\d:\d\d POST \/v3\/offers → 400 {2}[\d.]+ ms {2}86003$/);
    expect(lines()[3]).toMatch(/GET \/health → 200/);
  });
});

describe('JSON request lines', async () => {
  const lines: Array<Record<string, any>> = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => {
    for (const l of c.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
  });
  const app = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'j', logger: { stream } });
  afterAll(() => app.close());
  await app.inject({ method: 'POST', url: '/v3/offers', payload: {} });

  it('name the Problem code of the answer in the "request completed" line', () => {
    expect(lines.find((l) => l['msg'] === 'request completed')?.['res']).toEqual({ statusCode: 401, code: 'UNAUTHORIZED' });
  });

  it('write one line per request at info level, naming the request, the answer and its time', () => {
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'POST', url: '/v3/offers' }, res: { statusCode: 401 } });
    expect(lines[0]!['responseTime']).toBeGreaterThan(0);
  });
});
