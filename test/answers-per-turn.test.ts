import type { AddressInfo } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { testServer } from './helpers/server.ts';

/**
 * Answers finished in one turn of the event loop leave together at its end (adapters/http/answers-per-turn.ts): what a
 * caller notices is that every answer still reaches the request it answers, and that in-process requests, which the
 * scenario runner makes without a turn of the loop, are answered at once.
 */
describe('answers per turn of the event loop', async () => {
  const server = await testServer();
  /** Whether the answer had gone out when `reply.send` returned, and whether it had once the turn was over. */
  const seen: Array<{ atSend: boolean; afterTurn: boolean }> = [];
  server.app.get('/test-only/answer-out', { config: { notInRouteTable: true } }, async (_request, reply) => {
    reply.send({ ok: true });
    const atSend = reply.raw.headersSent;
    await turn();
    seen.push({ atSend, afterTurn: reply.raw.headersSent });
    return reply;
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  afterAll(() => server.app.close());

  it('holds an answer to a connection until the end of its turn, and answers an in-process request at once', async () => {
    seen.length = 0;
    const overHttp = await fetch(`${base}/test-only/answer-out`);
    expect(overHttp.status).toBe(200);
    expect(await overHttp.json()).toEqual({ ok: true });
    expect(seen).toEqual([{ atSend: false, afterTurn: true }]);

    seen.length = 0;
    const inProcess = await server.app.inject({ method: 'GET', url: '/test-only/answer-out' });
    expect(inProcess.json()).toEqual({ ok: true });
    await turn(); // the handler's own turn, once its answer is out
    expect(seen).toEqual([{ atSend: true, afterTurn: true }]);
  });

  it('gives each of many requests sent at once, on connections of their own, its own answer', async () => {
    const ids = Array.from({ length: 48 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${base}/health`, { headers: { 'x-request-id': id } });
        return { status: res.status, id: res.headers.get('x-request-id'), body: (await res.json()) as { status: string } };
      }),
    );
    expect(answers.map((a) => a.id)).toEqual(ids);
    expect(answers.every((a) => a.status === 200 && a.body.status === 'ok')).toBe(true);
  });
});
