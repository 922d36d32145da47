import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { engine, testServer } from './helpers/server.ts';

/**
 * Wrong credentials are limited, right ones are never refused because of them (docs/limits.md): whoever knows a
 * client id must not be able to lock that client out, and a guesser is stopped. The limits are read from
 * rules/limits.yaml, so the tests hold whatever numbers an analyst sets there.
 */
const apps: FastifyInstance[] = [];
async function server() {
  const { app } = await testServer();
  apps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of apps) await app.close();
});

const limits = engine().rules.limits;

const tokenRequest = (app: FastifyInstance, client: string, secret: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=client_credentials&client_id=${client}&client_secret=${secret}`,
    remoteAddress,
  });

describe('POST /oauth2/token after wrong secrets', () => {
  it('gives the right secret its token from another address after the client was sent more wrong ones than its limit', async () => {
    const app = await server();
    let wrong = await tokenRequest(app, 'demo-reseller', 'wrong', '127.0.0.3');
    for (let i = 0; i < limits.failedTokenAttempts.perClient + 5 && wrong.statusCode !== 429; i++)
      wrong = await tokenRequest(app, 'demo-reseller', 'wrong', '127.0.0.3');
    expect(wrong.statusCode).toBe(429);
    const right = await tokenRequest(app, 'demo-reseller', 'demo-reseller-secret', '127.0.0.2');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().access_token).toEqual(expect.any(String));
  });

  it('answers wrong secrets beyond the per-client limit 429 with Retry-After, from any address, while the right one still works', async () => {
    const app = await server();
    const answers = [];
    for (let i = 0; i <= limits.failedTokenAttempts.perClient; i++) answers.push(await tokenRequest(app, 'demo-other', 'wrong', `10.7.0.${i}`));
    expect(answers.slice(0, -1).map((a) => a.statusCode)).toEqual(Array(limits.failedTokenAttempts.perClient).fill(401));
    const refused = answers.at(-1)!;
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining(refused.headers['retry-after'] as string) });
    expect((await tokenRequest(app, 'demo-other', 'demo-other-secret', '10.7.1.1')).statusCode).toBe(200);
  });

  it('makes an address that sent a limit of wrong secrets wait, whatever it sends, and no other address', async () => {
    const app = await server();
    for (let i = 0; i < limits.failedTokenAttempts.perAddress; i++) {
      expect((await tokenRequest(app, `nobody-${i}`, 'wrong', '10.8.0.1')).statusCode).toBe(401);
    }
    const waits = await tokenRequest(app, 'demo-reseller', 'demo-reseller-secret', '10.8.0.1');
    expect(waits.statusCode).toBe(429);
    expect(Number(waits.headers['retry-after'])).toBeGreaterThan(0);
    expect((await tokenRequest(app, 'demo-reseller', 'demo-reseller-secret', '10.8.0.2')).statusCode).toBe(200);
  });
});

describe('the Customer API after wrong subscription keys', () => {
  const lookup = (app: FastifyInstance, key: string, remoteAddress: string, authorization?: string) =>
    app.inject({
      method: 'POST',
      url: '/customer/contacts/email',
      headers: { 'ocp-apim-subscription-key': key, 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      payload: { email: 'anna.svensson@example.se' },
      remoteAddress,
    });
  const customerToken = async (app: FastifyInstance) =>
    `Bearer ${(await tokenRequest(app, 'demo-reseller', 'demo-reseller-secret', '10.9.9.9')).json().access_token as string}`;

  it("answers a client's wrong keys beyond its limit 429 Problem with Retry-After, from any address, while the right key still answers", async () => {
    const app = await server();
    const token = await customerToken(app);
    const { perClient } = limits.failedSubscriptionKeys;
    const statuses = [];
    for (let i = 0; i < perClient; i++) statuses.push((await lookup(app, `guess-${i}`, `10.10.0.${i}`, token)).statusCode);
    expect(statuses).toEqual(Array(perClient).fill(401));
    const refused = await lookup(app, 'guess-again', '10.10.1.1', token);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ status: 429, code: 'X_TOO_MANY_ATTEMPTS' });
    expect(refused.json().detail).toContain(refused.headers['retry-after']);
    const right = await lookup(app, 'demo-subscription-key', '10.10.1.2', token);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toMatchObject({ email: 'anna.svensson@example.se' });
  });

  it('makes an address that guessed a limit of keys wait, token or not, and no other address', async () => {
    const app = await server();
    const { perAddress } = limits.failedSubscriptionKeys;
    for (let i = 0; i < perAddress; i++) expect((await lookup(app, `guess-${i}`, '10.11.0.1')).statusCode).toBe(401);
    const waits = await lookup(app, 'guess-more', '10.11.0.1');
    expect(waits.statusCode).toBe(429);
    expect(Number(waits.headers['retry-after'])).toBeGreaterThan(0);
    const token = await customerToken(app);
    expect((await lookup(app, 'demo-subscription-key', '10.11.0.2', token)).statusCode).toBe(200);
  });
});
