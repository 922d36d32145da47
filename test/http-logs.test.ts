import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../adapters/http/server.ts';
import { parseTraceparent } from '../adapters/http/logging.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, passengers, requestorHeader, trip } from './helpers/server.ts';

/**
 * Structured logs: one JSON object per line, each request's lines carrying its request id and W3C trace
 * context, and no secret in any of them, whatever the caller sends.
 */
describe('structured JSON logs', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'logs-secret', logger: { level: 'trace', stream } });
  // Code that logs carelessly: the redaction still censors the secrets.
  app.post('/test-only/careless', { config: { notInRouteTable: true } }, async (request) => {
    request.log.info({ headers: request.headers, body: request.body }, 'careless');
    return { ok: true };
  });
  app.get('/test-only/boom', { config: { notInRouteTable: true } }, async () => {
    throw new Error('kaboom');
  });
  afterAll(() => app.close());

  const SECRET = 'demo-reseller-secret';
  const KEY = 'demo-subscription-key';
  const basic = Buffer.from(`demo-reseller:${SECRET}`).toString('base64');
  const form = (extra = '') => `grant_type=client_credentials&client_id=demo-reseller&client_secret=${SECRET}${extra}`;
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

  const token = (await app.inject({ method: 'POST', url: '/oauth2/token', payload: form(), headers: formHeaders })).json().access_token as string;
  const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const responses = [
    await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: 'grant_type=client_credentials',
      headers: { ...formHeaders, authorization: `Basic ${basic}` },
    }),
    await app.inject({ method: 'POST', url: `/oauth2/token?client_secret=${SECRET}&x=1`, payload: form(), headers: formHeaders }),
    await app.inject({ method: 'POST', url: '/oauth2/token', payload: form('&scope=nonsense'), headers: formHeaders }),
    await app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) },
      headers: { authorization: `Bearer ${token}`, requestor: requestorHeader(), traceparent: incoming, 'x-request-id': 'offers-1' },
    }),
    await app.inject({
      method: 'POST',
      url: '/customer/contacts/email',
      payload: { email: 'anna.svensson@example.se' },
      headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY },
    }),
    await app.inject({ method: 'POST', url: '/v3/offers', payload: {}, headers: { authorization: `Bearer ${token}x` } }),
    await app.inject({
      method: 'POST',
      url: '/test-only/careless',
      payload: { client_secret: SECRET, nested: { client_secret: SECRET } },
      headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY },
    }),
    await app.inject({ method: 'GET', url: '/test-only/boom', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'boom-1' } }),
  ];
  const logs = lines.map((l) => JSON.parse(l) as Record<string, any>);

  it('writes one JSON object per line, with ISO time and level names', () => {
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 400, 200, 200, 401, 200, 500]);
    expect(logs.length).toBeGreaterThan(10);
    for (const log of logs) {
      expect(log['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(log['level']);
    }
  });

  it('names the request id and the trace on every line of a request, and answers with our span', () => {
    const offers = logs.filter((l) => l['reqId'] === 'offers-1');
    expect(offers.map((l) => l['msg'])).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    for (const line of offers) {
      expect(line['traceId']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(line['parentSpanId']).toBe('00f067aa0ba902b7');
    }
    const answered = parseTraceparent(responses[3]!.headers['traceparent'] as string)!;
    expect(answered).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: offers[0]!['spanId'], flags: '01' });
    expect(answered.parentSpanId).not.toBe('00f067aa0ba902b7');
    expect(offers.find((l) => l['msg'] === 'incoming request')!['req']).toMatchObject({
      method: 'POST',
      url: '/v3/offers',
      headers: { requestor: requestorHeader() },
    });
    expect(offers.find((l) => l['msg'] === 'request completed')!['res']).toMatchObject({ statusCode: 200 });
  });

  it('starts a new trace without a (valid) traceparent', () => {
    const first = parseTraceparent(responses[0]!.headers['traceparent'] as string)!;
    const second = parseTraceparent(responses[1]!.headers['traceparent'] as string)!;
    expect(first.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.traceId).not.toBe(second.traceId);
    expect(parseTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(parseTraceparent('ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBeUndefined();
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBeUndefined();
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBeDefined();
  });

  it('logs an unexpected error with its stack for the operator, under the reference the caller got', () => {
    const error = logs.find((l) => l['reqId'] === 'boom-1' && l['level'] === 'error')!;
    expect(error['msg']).toBe('unexpected error');
    expect(error['err']['message']).toBe('kaboom');
    expect(error['err']['stack']).toContain('http-logs.test.ts');
    expect(responses[7]!.json().detail).toContain('boom-1');
  });

  it('never writes a secret: client secrets, bearer tokens, Basic credentials, subscription keys', () => {
    const all = lines.join('\n');
    for (const secret of [SECRET, token, token.split('.')[2]!, basic, KEY, 'logs-secret']) expect(all).not.toContain(secret);
    expect(all).toContain('client_secret=[redacted]');
    const careless = logs.find((l) => l['msg'] === 'careless')!;
    expect(careless['headers']['authorization']).toBe('[redacted]');
    expect(careless['headers']['ocp-apim-subscription-key']).toBe('[redacted]');
    expect(careless['body']).toEqual({ client_secret: '[redacted]', nested: { client_secret: '[redacted]' } });
  });
});
