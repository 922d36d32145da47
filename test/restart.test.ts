import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../adapters/store/sqlite.ts';
import { passengers, testServer, trip, upcomingTrip } from './helpers/server.ts';

/** Nothing accepted is lost: a booking acknowledged is on disk, through a restart and through kill -9. */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sell(server: Awaited<ReturnType<typeof testServer>>) {
  const offers = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(30) });
  const booking = await server.reseller('POST', '/v3/booking', {
    externalRef: 'restart',
    offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
    passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
    purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
  });
  expect(booking.status).toBe(200);
  return booking.body.booking.id as string;
}

describe('restart keeps bookings', () => {
  it('a booking made before a restart is read after it', async () => {
    const path = join(dir, 'restart.db');
    const first = await testServer({ store: sqliteStore(path) });
    const id = await sell(first);
    expect((await first.reseller('POST', `/v3/bookings/${id}/fulfillment`)).status).toBe(202);
    await first.app.close();

    const second = await testServer({ store: sqliteStore(path) });
    const res = await second.reseller('GET', `/v3/bookings/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.booking.fulfillments).toHaveLength(2);
    await second.app.close();
  }, 30_000);

  it('kill -9 right after a 200 on a booking loses nothing', async () => {
    const path = join(dir, 'kill.db');
    const port = 20000 + Math.floor(Math.random() * 20000);
    const start = () =>
      spawn(process.execPath, ['bin/signalbox.js', 'serve', '--port', String(port), '--store', `sqlite:${path}`, '--quiet'], {
        env: { ...process.env, SIGNALBOX_JWT_SECRET: 'kill-test-secret' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
    const ready = (child: ChildProcess) =>
      new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
    const base = `http://127.0.0.1:${port}`;
    const token = async () =>
      (
        (await (
          await fetch(`${base}/oauth2/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
          })
        ).json()) as { access_token: string }
      ).access_token;
    const headers = async () => ({
      authorization: `Bearer ${await token()}`,
      requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'T' })).toString('base64'),
      'content-type': 'application/json',
    });

    let child = start();
    await ready(child);
    const offers = (await (
      await fetch(`${base}/v3/offers`, {
        method: 'POST',
        headers: await headers(),
        body: JSON.stringify({ tripSpecifications: [upcomingTrip()], anonymousPassengerSpecifications: passengers(30) }),
      })
    ).json()) as { offers: Array<{ offerId: string }> };
    const res = await fetch(`${base}/v3/booking`, {
      method: 'POST',
      headers: await headers(),
      body: JSON.stringify({
        externalRef: 'kill',
        offers: [{ offerId: offers.offers[0]!.offerId, passengerRefs: ['p1'] }],
        passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON' }],
      }),
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { booking: { id: string } }).booking.id;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    child = start();
    await ready(child);
    try {
      const again = await fetch(`${base}/v3/bookings/${id}`, { headers: await headers() });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { booking: { externalRef: string } }).booking.externalRef).toBe('kill');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
