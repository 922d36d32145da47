import { testServer, passengers } from '../helpers/server.ts';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
const fx = { ...parse(readFileSync('scenarios/fixtures/trips.yaml','utf8')).trips, ...parse(readFileSync('scenarios/fixtures/more-trips.yaml','utf8')).trips };
const s = await testServer();
const r = await s.reseller('POST', '/v3/offers', { tripSpecifications: [fx['sto-lul-nt']], anonymousPassengerSpecifications: passengers(35, 8, 0, 70, 15, 16, 25, 65, 3) });
console.log(r.status, r.body.offers.length);
const o = r.body.offers[r.body.offers.length - 1];
const refs = o.passengerRefs;
const spec = refs.map((ref: string) => ({ externalRef: ref, type: 'PERSON', detail: { firstName: 'A', lastName: 'B' } }));
const b = await s.reseller('POST', '/v3/booking', { externalRef: 'x', offers: [{ offerId: o.offerId, passengerRefs: refs }], passengerSpecifications: spec, purchaser: { detail: { firstName: 'A', lastName: 'B', email: 'a@b.se', phoneNumber: '+46701234567' } } });
console.log(b.status, Object.keys(b.body), b.body.booking.bookedOffers[0].ancillaries.length, b.body.booking.bookedOffers[0].reservations.length);
const id = b.body.booking.id;
const c = await s.reseller('POST', `/v3/bookings/${id}/fulfillments`);
console.log(c.status, c.body.fulfillments.length, JSON.stringify(c.body.fulfillments[0]).slice(0, 400));
const c2 = await s.reseller('POST', `/v3/bookings/${id}/fulfillment`);
console.log(c2.status, c2.body);
const g = await s.reseller('GET', `/v3/bookings/${id}`);
console.log(Object.keys(g.body), Object.keys(g.body.booking), g.body.booking.fulfillments.length);
const f = await s.reseller('GET', `/v3/fulfillments/${g.body.booking.fulfillments[1].id}`);
console.log(f.status, JSON.stringify(f.body).slice(0, 500));
for (const raw of ['', '{', 'nul', '[1,2', '{"a":1}}', '"str"', '123', 'null', '[]', '{}']) {
  for (const path of ['/v3/offers', '/v3/booking', `/v3/bookings/${id}/fulfillment`]) {
    const m = await s.reseller('POST', path, raw, { 'content-type': 'application/json' });
    console.log(JSON.stringify(raw), path, m.status, m.headers['content-type'], m.body?.code, m.body?.detail?.slice?.(0, 80));
  }
}
const other = await s.token('demo-other');
for (const [method, url] of [['GET', `/v3/bookings/${id}`], ['POST', `/v3/bookings/${id}/fulfillment`], ['POST', `/v3/bookings/${id}/fulfillments`], ['GET', `/v3/fulfillments/${g.body.booking.fulfillments[0].id}`], ['GET', '/v3/bookings/nope']] as const) {
  const res = await s.app.inject({ method, url, headers: { authorization: `Bearer ${other}`, requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'T' })).toString('base64') } });
  console.log(method, url, res.statusCode, res.json().code);
}
const ck = await s.reseller('POST', '/sandbox/clock', { advance: 'PT5M' });
console.log(ck.status, ck.body);
