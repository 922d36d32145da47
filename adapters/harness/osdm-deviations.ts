/** One place where a body breaks the OSDM schema of its operation and status. */
export interface Violation {
  /** `METHOD /osdm/path/{param}`, the operation as OSDM names its path. */
  operation: string;
  status: number;
  /** JSON Pointer into the body, array indices kept. */
  pointer: string;
  message: string;
}

/**
 * Where signalbox deliberately answers otherwise than OSDM 3.4, and only there (CONTRACT §4c), each with the
 * clause that demands it. The OSDM conformance check (osdm-conformance.ts) lets exactly these through;
 * any other difference from the official document is a violation. docs/api-and-integration.md lists them.
 */
export interface Deviation {
  id: string;
  /** The spec or CONTRACT clause that asks for it. */
  clause: string;
  says: string;
  /** Request fields OSDM does not define at those places that the operator nevertheless takes (CONTRACT §4). */
  accepts?: ReadonlyArray<{ operations: readonly string[]; field: string }>;
  /** A response field OSDM does not define at that place that the operator's response schemas describe. */
  describes?: { field: RegExp };
  /** Which violations it allows; absent: it cannot show in a schema check (the text of a field, say). */
  allows?: {
    /** `METHOD /path` as asked (the operator's path), or as OSDM names it. */
    operations?: readonly string[];
    statuses?: readonly number[];
    pointer?: RegExp;
    message: RegExp;
  };
}

export const DEVIATIONS: readonly Deviation[] = [
  {
    id: 'empty-202',
    clause: 'spec §4.1',
    says: 'POST …/fulfillment(s) and POST …/cleanup answer 202 with an empty body',
    allows: {
      operations: ['POST /bookings/{bookingId}/fulfillments', 'POST /bookings/{bookingId}/cleanup'],
      statuses: [202],
      message: /^an empty body where OSDM defines one$/,
    },
  },
  {
    id: 'booking-refund-amount',
    clause: 'spec §2.6',
    says: 'Booking.refundAmount: what the refunds of a booking paid back',
    allows: { pointer: /^(\/booking|\/bookings\/\d+)?$/, message: /^property refundAmount is not defined here$/ },
    describes: { field: /^#\/booking\/refundAmount$/ },
  },
  {
    id: 'operator-statuses',
    clause: 'CONTRACT §5',
    says: 'the statuses OSDM leaves to `default`: 409 for an expired or conflicting state, 413 for the body limit, 406 for cleanup below 3.4',
    allows: { statuses: [406, 409, 413], message: /^status \d+ is (left to OSDM's default answer|not an answer of this operation in OSDM 3\.4)$/ },
  },
  {
    id: 'localized-problem-titles',
    clause: 'CONTRACT §4',
    says: "Problem title and detail in the caller's language (OSDM's prose asks for English titles)",
  },
  {
    id: 'operator-paths',
    clause: 'CONTRACT §6',
    says: "the operator's paths POST /booking and POST /bookings/{id}/fulfillment beside OSDM's /bookings and …/fulfillments",
    allows: { operations: ['POST /bookings', 'POST /bookings/{bookingId}/fulfillments'], message: /^answered at the operator's path / },
  },
  {
    id: 'availabilities',
    clause: 'CONTRACT §6',
    says: 'GET /availabilities: the counts of free places for an offer or a booking (spec §2.11)',
    allows: { operations: ['GET /availabilities'], message: /^no such operation in OSDM 3\.4$/ },
  },
  {
    id: 'offer-request-object-type',
    clause: 'spec §2.2, CONTRACT §4',
    says: 'an offer request may carry objectType "OfferCollectionRequest", as the operator\'s document lists it; an exchange offer request resends it',
    accepts: [{ operations: ['POST /v3/offers', 'POST /v3/bookings/{bookingId}/exchange-offers'], field: '#/objectType' }],
  },
  {
    id: 'spec-spelled-fields',
    clause: 'spec §2.2, §2.6, CONTRACT §4',
    says: "a passenger's age may be sent as the spec's `Age`, a passenger's e-mail as the spec's `eMail`; read as OSDM's `age` and `email`",
    accepts: [
      { operations: ['POST /v3/offers', 'POST /v3/bookings/{bookingId}/exchange-offers'], field: '#/anonymousPassengerSpecifications/*/Age' },
      { operations: ['POST /v3/booking', 'POST /v3/bookings'], field: '#/passengerSpecifications/*/detail/eMail' },
      { operations: ['PATCH /v3/bookings/{bookingId}/passengers/{passengerId}'], field: '#/detail/eMail' },
    ],
  },
  {
    id: 'top-level-place-selections',
    clause: 'spec §2.6, CONTRACT §4b',
    says: 'a booking request may give its placeSelections at the top level as well as inside each offer selection',
    accepts: [{ operations: ['POST /v3/booking', 'POST /v3/bookings'], field: '#/placeSelections' }],
  },
  {
    id: 'incomplete-passenger-details',
    clause: 'spec §2.7',
    says: 'passenger details may stay incomplete until confirmation',
    allows: { pointer: /\/passengers?(\/\d+)?\/detail$/, message: /^required property (firstName|lastName) is missing$/ },
  },
];

/** The deviation that allows this violation of an answer to `asked` (`METHOD /path`), if any. */
export function deviationOf(v: Violation, asked: string): Deviation | undefined {
  return DEVIATIONS.find(
    ({ allows }) =>
      allows &&
      (!allows.operations || allows.operations.includes(v.operation) || allows.operations.includes(asked)) &&
      (!allows.statuses || allows.statuses.includes(v.status)) &&
      (!allows.pointer || allows.pointer.test(v.pointer)) &&
      allows.message.test(v.message),
  );
}
