import { describe, expect, it } from 'vitest';
import { passengers, requestorHeader, testServer, trip } from './helpers/server.ts';

/**
 * A sandbox many integration teams share (our addition to CONTRACT §8): each client has a clock of its own and a
 * reset that empties only its own bookings, and may jump to the moments of its own bookings. One team moving time
 * or resetting changes nothing for another.
 */
describe('two clients on one sandbox', () => {
  async function sandbox() {
    const server = await testServer();
    const as = async (client: string) => ({ authorization: `Bearer ${await server.token(client)}` });
    const call = async (client: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await server.app.inject({
        method,
        url,
        headers: {
          ...(await as(client)),
          requestor: requestorHeader(),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    };
    const book = async (client: string) => {
      const offers = await call(client, 'POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) });
      const booking = await call(client, 'POST', '/v3/booking', {
        externalRef: `${client}-1`,
        offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
        passengerSpecifications: passengers(35).map((p) => ({ ...p, detail: { firstName: 'Anna', lastName: 'Svensson' } })),
        purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } },
      });
      expect(booking.status).toBe(200);
      return booking.body.booking as { id: string; confirmationTimeLimit: string };
    };
    const clockOf = async (client: string) => (await call(client, 'GET', '/sandbox/clock')).body.now as string;
    return { server, call, book, clockOf };
  }

  it('the controls need a token: without one the clock and the reset answer 401', async () => {
    const { server } = await sandbox();
    const clock = await server.app.inject({
      method: 'POST',
      url: '/sandbox/clock',
      headers: { 'content-type': 'application/json' },
      payload: '{"advance":"P1D"}',
    });
    expect(clock.statusCode).toBe(401);
    expect(clock.headers['content-type']).toContain('application/problem+json');
    expect((await server.app.inject({ method: 'POST', url: '/sandbox/reset' })).statusCode).toBe(401);
  });

  it("neither moves the other's clock, and a booking expires on its owner's clock only", async () => {
    const { call, book, clockOf } = await sandbox();
    const start = await clockOf('demo-other');
    const theirs = await book('demo-other');
    const moved = await call('demo-reseller', 'POST', '/sandbox/clock', { advance: 'PT2H', freeze: true });
    expect(moved.status).toBe(200);
    expect(Date.parse(await clockOf('demo-reseller')) - Date.parse(start)).toBe(2 * 3600_000);
    expect(await clockOf('demo-other')).toBe(start);
    // Two hours on for demo-reseller; for demo-other its provisional booking is still within its time limit.
    const read = await call('demo-other', 'POST', `/v3/bookings/${theirs.id}/fulfillment`);
    expect(read.status).toBe(202);
  });

  it("a reset empties the caller's bookings only, and its clock follows the server's again", async () => {
    const { call, book, clockOf } = await sandbox();
    const mine = await book('demo-reseller');
    const theirs = await book('demo-other');
    await call('demo-reseller', 'POST', '/sandbox/clock', { advance: 'P1D' });
    expect((await call('demo-reseller', 'POST', '/sandbox/reset')).status).toBe(200);
    expect((await call('demo-reseller', 'GET', `/v3/bookings/${mine.id}`)).status).toBe(404);
    expect((await call('demo-other', 'GET', `/v3/bookings/${theirs.id}`)).status).toBe(200);
    expect(await clockOf('demo-reseller')).toBe(await clockOf('demo-other'));
  });

  it("time travel moves the caller's clock to a moment of its own booking, and to nobody else's", async () => {
    const { call, book, clockOf } = await sandbox();
    const start = await clockOf('demo-other');
    const mine = await book('demo-reseller');
    const limit = await call('demo-reseller', 'POST', `/sandbox/bookings/${mine.id}/time-travel`, { to: 'CONFIRMATION_TIME_LIMIT' });
    expect(limit).toMatchObject({ status: 200, body: { now: new Date(mine.confirmationTimeLimit).toISOString(), frozen: true } });
    expect(await clockOf('demo-other')).toBe(start);
    // Another client's booking is not found, as everywhere (CONTRACT §3).
    expect((await call('demo-other', 'POST', `/sandbox/bookings/${mine.id}/time-travel`, { to: 'DEPARTURE' })).status).toBe(404);
    const departure = await call('demo-reseller', 'POST', `/sandbox/bookings/${mine.id}/time-travel`, { to: 'DEPARTURE' });
    expect(departure.body.now).toBe(new Date(trip().legs[0]!.timedLeg.start.serviceDeparture.timetabledTime).toISOString());
    // The end of the cleanup window needs a confirmed booking.
    const early = await call('demo-reseller', 'POST', `/sandbox/bookings/${mine.id}/time-travel`, { to: 'CLEANUP_WINDOW_END' });
    expect(early).toMatchObject({ status: 409, body: { code: 'X_BOOKING_STATE' } });
  });

  it('the end of the cleanup window is where rules/cleanup.yaml closes it: confirmation plus its window', async () => {
    const { call, book } = await sandbox();
    const mine = await book('demo-reseller');
    await call('demo-reseller', 'POST', '/v3/bookings/' + mine.id + '/fulfillment');
    const { body } = await call('demo-reseller', 'GET', `/v3/bookings/${mine.id}`);
    const confirmed = Date.parse(body.booking.fulfillments[0].createdOn as string);
    const end = await call('demo-reseller', 'POST', `/sandbox/bookings/${mine.id}/time-travel`, { to: 'CLEANUP_WINDOW_END' });
    expect(end.status).toBe(200);
    expect(Date.parse(end.body.now) - confirmed).toBe(60 * 60_000);
  });
});
