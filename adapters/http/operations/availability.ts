import { phrase, RuleViolation, type AvailabilityKind, AvailabilityQuery } from '../../../engine/index.ts';
import * as S from '../openapi/schemas.ts';
import { decided, json, operation, type Handler, type Operation } from './operation.ts';

// Each parameter's schema is the one the engine validates the query with (an empty id is 86001, not a lookup).
const { shape } = AvailabilityQuery;
const availabilityQuery = {
  contextType: { description: '`OFFER` or `BOOKING`', required: true, schema: shape.contextType },
  contextId: { description: 'The offerId (OFFER) or the bookingId (BOOKING).', required: true, schema: shape.contextId },
  resourceType: { description: '`RESERVATION` (FARE → error, spec §4.1 rule 3).', required: true, schema: shape.resourceType },
  resourceId: { description: 'The reservationOfferPartId (OFFER) or the reservationId (BOOKING).', required: true, schema: shape.resourceId },
};

const availability =
  (kind: AvailabilityKind): Handler =>
  async ({ service, requestor, query }) =>
    decided(await service.availability(await requestor(), kind, query ?? {}));

/**
 * Seat availability (spec §2.11, §4.1 rule 3, CONTRACT §6): counts, available places and the place map for an
 * offer's reservation offer part or a booking's reservation; coach layouts by id.
 */
export const availabilities: Operation[] = [
  operation({
    method: 'GET',
    path: '/v3/availabilities',
    summary: 'Available places per place-property combination',
    section: 'spec §4.1, CONTRACT §6',
    tag: 'Availability',
    access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('Counts', S.AvailabilityCountResponse) },
    handle: availability('counts'),
  }),
  operation({
    method: 'GET',
    path: '/v3/availabilities/preferences',
    osdm: ['getAvailabilitiesPreferences'],
    summary: 'Seat availability',
    section: 'spec §4.1, CONTRACT §6',
    tag: 'Availability',
    access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('Available places', S.PlacePreferencesResponse) },
    handle: availability('preferences'),
  }),
  operation({
    method: 'GET',
    path: '/v3/availabilities/place-map',
    osdm: ['getAvailabilitiesPlaceMap'],
    summary: 'Place map',
    section: 'spec §2.11, §4.1 rule 3',
    tag: 'Availability',
    access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('PlaceAvailability', S.PlaceAvailabilityResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED' },
    handle: availability('place-map'),
  }),
  operation({
    method: 'GET',
    path: '/v3/coach-layouts/{layoutId}',
    osdm: ['getCoachLayoutsLayoutId'],
    summary: 'A coach layout',
    section: 'spec §2.11, CONTRACT §6',
    tag: 'Availability',
    access: 'reseller',
    responses: { 200: json('CoachLayoutResponse', S.CoachLayoutResponse) },
    handle: async ({ service, params }) => {
      const body = service.engine.coachLayout(params.layoutId);
      // Spec §4.1 rule 3: an unknown coach layout id.
      if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-coach-layout'), id: params.layoutId });
      return { body };
    },
  }),
  // Spec §4.1 names only GET (OSDM's getAvailabilitiesNearby), "not supported": GET is 501, any other method 405.
  operation({
    method: 'GET',
    path: '/v3/availabilities/nearby',
    osdm: ['getAvailabilitiesNearby'],
    summary: 'Nearby availability (not supported)',
    section: 'spec §4.1, CONTRACT §5',
    tag: 'Availability',
    access: 'reseller',
    responses: {},
    problems: { 501: 'always' },
    handle: async () => {
      throw new RuleViolation('X_NOT_SUPPORTED', { feature: phrase('feature-nearby-availabilities') });
    },
  }),
];
