import { afterAll, describe, expect, it } from 'vitest';
import { checkResponse, operationOf } from '../adapters/harness/api-schema.ts';
import { describeStep, failureMessage } from '../adapters/harness/report.ts';
import type { StepResult } from '../adapters/harness/results.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/**
 * Every response a scenario gets is checked against the API's schema, so an empty or partial body
 * cannot pass a subset match. Real answers of the server pass; the same answers broken the way a faulty server
 * would break them fail, each at its JSON pointer, under the operation and status.
 */
const server = await testServer();
afterAll(() => server.app.close());

const offered = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) });
const booked = await server.reseller('POST', '/v3/booking', {
  externalRef: 'schema-1',
  offers: [{ offerId: offered.body.offers[0].offerId, passengerRefs: ['p1'] }],
  passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
  purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna@example.se', phoneNumber: '+46701234567' } },
});
const messages = (method: string, path: string, status: number, body: unknown) =>
  checkResponse(method, path, status, body).map((m) => `${m.path}: ${m.message}`);

describe('the schema check of a response', () => {
  it('passes what the server really answers', () => {
    expect(offered.status).toBe(200);
    expect(booked.status).toBe(200);
    expect(messages('POST', '/v3/offers', 200, offered.body)).toEqual([]);
    expect(messages('POST', '/v3/booking', 200, booked.body)).toEqual([]);
    expect(messages('GET', `/v3/bookings/${booked.body.booking.id}?embed=ALL`, 200, booked.body)).toEqual([]);
  });

  it('fails a booking without its id, a price without its currency and a field the API does not have, each at its pointer', () => {
    const broken = structuredClone(booked.body);
    delete broken.booking.id;
    delete broken.booking.provisionalPrice.currency;
    broken.booking.bookedOffers[0].admissions[0].surprise = true;
    expect(messages('POST', '/v3/booking', 200, broken)).toEqual([
      'response does not match the API schema for POST /v3/booking → 200: /booking/id: expected string, got undefined',
      'response does not match the API schema for POST /v3/booking → 200: /booking/bookedOffers/0/admissions/0/surprise: not in the schema, got true',
      'response does not match the API schema for POST /v3/booking → 200: /booking/provisionalPrice/currency: expected "SEK" or "EUR", got undefined',
    ]);
  });

  it('fails an empty body where the operation answers one, and a body where it answers none', () => {
    expect(messages('POST', '/v3/offers', 200, undefined)).toEqual([
      'response does not match the API schema for POST /v3/offers → 200: (root): expected object, got an empty body',
    ]);
    expect(messages('POST', '/v3/bookings/b-1/fulfillment', 202, {})).toEqual([
      'response does not match the API schema for POST /v3/bookings/{bookingId}/fulfillment → 202: (root): expected an empty body, got an object',
    ]);
    expect(messages('DELETE', '/v3/bookings/b-1/refund-offers/r-1', 204, undefined)).toEqual([]);
  });

  it('fails an offer whose parts lost their shape', () => {
    const broken = structuredClone(offered.body);
    delete broken.offers[0].offerId;
    broken.offers[0].admissionOfferParts[0].objectType = 'Admission';
    broken.offers[0].admissionOfferParts[0].price.amount = '350.00';
    expect(messages('POST', '/v3/offers', 200, broken)).toEqual([
      'response does not match the API schema for POST /v3/offers → 200: /offers/0/offerId: expected string, got undefined',
      'response does not match the API schema for POST /v3/offers → 200: /offers/0/admissionOfferParts/0/objectType: expected "AdmissionOfferPart", got "Admission"',
      'response does not match the API schema for POST /v3/offers → 200: /offers/0/admissionOfferParts/0/price/amount: expected number, got "350.00"',
    ]);
  });

  it('checks errors as Problems, and the token endpoint as RFC 6749 bodies', async () => {
    const notFound = await server.reseller('GET', '/v3/bookings/nothing');
    expect(messages('GET', '/v3/bookings/nothing', 404, notFound.body)).toEqual([]);
    expect(messages('GET', '/v3/bookings/nothing', 404, { error: 'not_found' })).toContain(
      'response does not match the API schema for GET /v3/bookings/{bookingId} → 404: /code: expected string, got undefined',
    );
    expect(messages('POST', '/oauth2/token', 401, { error: 'invalid_client', error_description: 'unknown client' })).toEqual([]);
    expect(messages('POST', '/oauth2/token', 401, { code: 'UNAUTHORIZED' })).toHaveLength(3);
  });

  it('says when the API has no such operation or status', () => {
    expect(messages('POST', '/v3/bookings/b-1/fulfillment', 200, {})).toEqual([
      'response does not match the API schema: the API declares no 200 answer for POST /v3/bookings/{bookingId}/fulfillment (it declares 202)',
    ]);
    expect(messages('GET', '/v3/nowhere', 200, {})).toEqual(['response does not match the API schema: the API has no operation GET /v3/nowhere']);
  });

  it('finds the operation of a path, literal segments before parameters', () => {
    expect(operationOf('GET', '/v3/availabilities/place-map?contextType=OFFER')).toBe('GET /v3/availabilities/place-map');
    expect(operationOf('PUT', '/v3/bookings/b-1/booked-offers/o-1/reservations')).toBe('ANY /v3/bookings/{bookingId}/booked-offers/*');
    expect(operationOf('POST', '/v3/bookings/b-1/fulfillments')).toBe('POST /v3/bookings/{bookingId}/fulfillments');
    expect(operationOf('GET', '/docs')).toBe('GET /docs');
  });

  it('prints the mismatches under one heading naming the operation and status, and names the first in the one-line failure', () => {
    const broken = structuredClone(booked.body);
    delete broken.booking.id;
    delete broken.booking.provisionalPrice.currency;
    const mismatches = checkResponse('POST', '/v3/booking', 200, broken).map((m) => ({ ...m, at: 'x.yaml:3:5' }));
    const step: StepResult = {
      name: 'book',
      at: 'x.yaml:3',
      passed: false,
      ms: 0,
      mismatches,
      request: { method: 'POST', path: '/v3/booking' },
      response: { status: 200, body: { booking: {} } },
      traces: [],
    };
    expect(describeStep(step).join('\n')).toBe(
      [
        '  ✗ book  (x.yaml:3)',
        '      POST /v3/booking → 200',
        '      response does not match the API schema for POST /v3/booking → 200:  (x.yaml:3:5)',
        '        /booking/id: expected string, got undefined',
        '        /booking/provisionalPrice/currency: expected "SEK" or "EUR", got undefined',
        '      response 200: {"booking":{}}',
        '      rule traces: no decision was made',
      ].join('\n'),
    );
    expect(failureMessage({ file: 'x.yaml', name: 'x', tags: [], passed: false, problems: [], steps: [step], ms: 0 })).toBe(
      'step "book" at x.yaml:3: response does not match the API schema for POST /v3/booking → 200: /booking/id: expected string, got undefined (and 1 more mismatches)',
    );
  });
});
