/**
 * The invariants themselves can fail: each is shown a real response, then the same response broken the
 * way a bug would break it (a test that cannot fail is worse than none).
 */
import { describe, expect, it } from 'vitest';
import { bookingProblems, refundQuoteProblems } from '../helpers/model-invariants.ts';
import { runModel } from '../helpers/model-run.ts';
import { universalProblems, type Response } from '../helpers/model-system.ts';
import { Book } from './commands/book.ts';
import { Confirm } from './commands/confirm.ts';
import { RequestOffers } from './commands/offers.ts';
import { ReadBooking } from './commands/read-booking.ts';
import { ConfirmAftersalesOffer } from './commands/confirm-aftersales-offer.ts';
import { RequestExchange } from './commands/exchange.ts';
import { agentBooking } from './commands/on-hold-offer.ts';
import { CreateRefundOffer } from './commands/refund-offer.ts';

/** A booking of an adult and a child on a night train (admissions and reservations), read before and after confirmation. */
async function bookings() {
  const { model, system } = await runModel([
    new RequestOffers('sto-lul-nt', [40, 8], 'SECOND', 'NON_FLEXIBLE', 2),
    new Book(0, 'complete', 0, true, '/v3/booking', 'LADIES'),
    new ReadBooking(0),
    new Confirm(0, 'fulfillment'),
  ]);
  const bodies = system.steps.filter((r) => r.step['get'] && !r.observational).map((r) => structuredClone((r.response!.body as { booking: any }).booking));
  return { model, provisional: bodies[0], confirmed: bodies[1] };
}

describe('the booking invariants', async () => {
  const { model, provisional, confirmed } = await bookings();
  const b = model.bookings[0]!;
  const asProvisional = { ...b, state: 'PREBOOKED' };

  it('hold for what the API answers', () => {
    expect(provisional.bookedOffers[0].reservations.length).toBeGreaterThan(0);
    expect(bookingProblems(model, asProvisional, provisional)).toEqual([]);
    expect(bookingProblems(model, b, confirmed)).toEqual([]);
  });

  it('catch a price that is not the sum of the parts, VAT included', () => {
    const broken = structuredClone(provisional);
    broken.bookedOffers[0].admissions[0].price.amount += 100;
    expect(bookingProblems(model, asProvisional, broken)).toEqual([expect.stringMatching(/^provisionalPrice \d+ is not the sum of its parts' prices \d+$/)]);
    const vat = structuredClone(provisional);
    vat.bookedOffers[0].admissions[0].price.vats[0].amount += 1;
    expect(bookingProblems(model, asProvisional, vat)).toEqual([expect.stringMatching(/^VAT SE 6%: the parts add up to/)]);
  });

  it('catch parts and fulfillments in states the booking state does not allow', () => {
    const early = structuredClone(provisional);
    early.bookedOffers[0].reservations[0].status = 'FULFILLED';
    expect(bookingProblems(model, asProvisional, early)).toEqual([expect.stringContaining("a PREBOOKED booking's parts may be PREBOOKED")]);
    const stale = structuredClone(confirmed);
    stale.bookedOffers[0].admissions[1].status = 'PREBOOKED';
    expect(bookingProblems(model, b, stale)).toEqual([expect.stringContaining("a FULFILLED booking's parts may be FULFILLED")]);
    expect(bookingProblems(model, { ...b, state: 'NO_SUCH_STATE' }, confirmed)[0]).toContain('no state of machines/booking.ts');
  });

  it('catch a confirmed price before confirmation, or a different one after', () => {
    const paid = structuredClone(provisional);
    paid.confirmedPrice = paid.provisionalPrice;
    expect(bookingProblems(model, asProvisional, paid)).toEqual([expect.stringContaining('before confirmation')]);
    const other = structuredClone(confirmed);
    other.confirmedPrice.amount -= 1;
    expect(bookingProblems(model, b, other)).toEqual([expect.stringContaining('is not provisionalPrice')]);
  });

  it('catch a refund above the price, a part refunded twice, and a refundAmount that is not the sum of the parts', () => {
    const refunded = structuredClone(confirmed);
    const admission = refunded.bookedOffers[0].admissions[0];
    admission.status = 'CANCELLED';
    admission.refundAmount = structuredClone(admission.price);
    refunded.refundAmount = structuredClone(admission.price);
    const seen = { ...b, refunded: new Map<string, number>() };
    expect(bookingProblems(model, seen, refunded)).toEqual([]);
    const again = structuredClone(refunded);
    again.bookedOffers[0].admissions[0].refundAmount.amount -= 1;
    again.refundAmount.amount -= 1;
    expect(bookingProblems(model, seen, again)).toEqual([expect.stringContaining('a part is refunded once')]);
    const back = structuredClone(refunded);
    back.bookedOffers[0].admissions[0].status = 'FULFILLED';
    expect(bookingProblems(model, seen, back)).toEqual([expect.stringContaining('a part is refunded once')]);
    const more = structuredClone(refunded);
    more.bookedOffers[0].admissions[0].refundAmount.amount += 1;
    more.refundAmount.amount += 1;
    expect(bookingProblems(model, { ...b, refunded: new Map() }, more)).toEqual([expect.stringContaining('never more than the price')]);
    const sum = structuredClone(refunded);
    sum.refundAmount.amount += 1;
    expect(bookingProblems(model, { ...b, refunded: new Map() }, sum)).toEqual([
      expect.stringMatching(/^refundAmount \d+ is not the sum of its parts' refundAmounts \d+$/),
    ]);
  });

  it('catch a refund quote above what its parts cost, or one that confirming does not refund', () => {
    const ids = confirmed.fulfillments.map((f: { id: string }) => f.id);
    const price = confirmed.provisionalPrice.amount;
    expect(refundQuoteProblems(confirmed, ids, price, false)).toEqual([]);
    expect(refundQuoteProblems(confirmed, ids, price * 2, false)).toEqual([expect.stringContaining(`more than the ${price} paid for its parts`)]);
    const refunded = structuredClone(confirmed);
    for (const p of refunded.bookedOffers[0].admissions) p.refundAmount = structuredClone(p.price);
    expect(
      refundQuoteProblems(
        refunded,
        ids,
        refunded.bookedOffers[0].admissions.reduce((n: number, p: any) => n + p.price.amount, 0),
        true,
      ),
    ).toEqual([]);
    expect(refundQuoteProblems(refunded, ids, 1, true)).toEqual([expect.stringContaining('the quote is what confirming refunds')]);
  });

  it('hold for a refund of an exchanged ticket: quoted once, refunded as quoted (AGENT_SE, one fee per ticket)', async () => {
    const { model: after } = await runModel([
      ...agentBooking(),
      new Confirm(0, 'fulfillment'),
      new RequestExchange(0),
      new Confirm(0, 'fulfillment'),
      new CreateRefundOffer(0, 'whole'),
      new ConfirmAftersalesOffer(0),
    ]);
    expect(after.bookings[0]!.exchanged).toBe(true);
    expect(after.aftersales.map((o) => [o.kind, o.state])).toEqual([['refund', 'CONFIRMED']]);
  });

  it('catch an on-hold limit past departure − 24 hours', () => {
    const held = structuredClone(provisional);
    held.confirmationTimeLimit = new Date(b.createdAt + 25 * 3_600_000).toISOString();
    expect(bookingProblems(model, { ...asProvisional, departure: b.createdAt + 60 * 24 * 3_600_000 }, held)).toEqual([]);
    expect(bookingProblems(model, { ...asProvisional, departure: b.createdAt + 30 * 3_600_000 }, held)).toEqual([
      expect.stringContaining('past departure − 24 h'),
    ]);
  });

  it('catch a part in no fulfillment, or in two', () => {
    const twice = structuredClone(confirmed);
    twice.fulfillments[1].bookingParts.push(twice.fulfillments[0].bookingParts[0]);
    expect(bookingProblems(model, b, twice)).toEqual([expect.stringMatching(/^part \S+ is in 2 fulfillments/)]);
    const none = structuredClone(confirmed);
    none.fulfillments.pop();
    expect(bookingProblems(model, b, none)).toEqual([expect.stringMatching(/^part \S+ is in 0 fulfillments/)]);
  });
});

describe('the invariants of every response', () => {
  const problem = (status: number, body: unknown, type = 'application/problem+json; charset=utf-8'): Response => ({
    status,
    headers: { 'content-type': type },
    body,
  });
  const notFound = {
    code: 'RESOURCE_NOT_FOUND',
    type: '/errors/RESOURCE_NOT_FOUND',
    title: 'Resource not found',
    status: 404,
    detail: 'No booking with id x exists.',
  };

  it('accept a catalogued Problem and the one deliberate 5xx, 501 X_NOT_SUPPORTED', () => {
    expect(universalProblems(problem(404, notFound))).toEqual([]);
    expect(
      universalProblems(
        problem(501, {
          code: 'X_NOT_SUPPORTED',
          type: '/errors/X_NOT_SUPPORTED',
          title: 'Not supported',
          status: 501,
          detail: 'Voucher payment is not supported by this service.',
        }),
      ),
    ).toEqual([]);
  });

  it('refuse any other 5xx, an uncatalogued code, a wrong status, title or content type, an unknown warning', () => {
    expect(universalProblems(problem(500, { ...notFound, code: 'INTERNAL_ERROR', status: 500, title: 'Internal error' }))[0]).toContain('may get a 5xx');
    expect(universalProblems(problem(404, { ...notFound, code: 'NOT_A_CODE' }))).toEqual([expect.stringContaining('not in rules/errors.yaml')]);
    expect(universalProblems(problem(400, { ...notFound, status: 400 }))).toEqual([
      expect.stringContaining('RESOURCE_NOT_FOUND is 404 in the catalogue, answered with 400'),
    ]);
    expect(universalProblems(problem(404, { ...notFound, title: 'Not found' }))).toEqual([expect.stringContaining("is not the catalogue's")]);
    expect(universalProblems(problem(404, notFound, 'application/json'))).toEqual([expect.stringContaining('application/problem+json')]);
    expect(universalProblems({ status: 200, headers: {}, body: { warnings: { warnings: [{ code: 'X_MADE_UP' }] } } })).toEqual([
      expect.stringContaining('X_MADE_UP'),
    ]);
  });
});
