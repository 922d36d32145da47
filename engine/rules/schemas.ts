import { z } from 'zod';

/**
 * The shapes of the files in rules/. Types, load-time validation and the JSON Schemas that editors use
 * (`npm run schemas`) all come from these.
 */

export const Language = z.enum(['en-GB', 'sv-SE']);
export type Language = z.infer<typeof Language>;

/** A text in every response language. */
export const LocalizedText = z.strictObject({ 'en-GB': z.string().min(1), 'sv-SE': z.string().min(1) });
export type LocalizedText = z.infer<typeof LocalizedText>;

/** ISO 8601 duration without years or months (they have no fixed length): P1D, PT60M, P1DT2H. */
export const IsoDuration = z
  .string()
  .regex(/^P(?!$)(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/, 'an ISO 8601 duration such as PT60M or P1D (no years or months)');

// ---------------------------------------------------------------- decision tables

export const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const Operator = z.enum([
  'equal', 'notEqual', 'lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive',
  'in', 'notIn', 'contains', 'doesNotContain', 'between',
]);
export type Operator = z.infer<typeof Operator>;

/** `fact: value` (equal) or `fact: { operator: value, … }` (all must hold). */
export const FactTest = z.union([Scalar, z.partialRecord(Operator, z.unknown())]);

export const DecisionRow = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case words joined by hyphens').refine((s) => s !== 'error', {
    message: 'a row may not be called "error": json-rules-engine rejects events of that type',
  }),
  description: z.string().optional(),
  when: z.record(z.string(), FactTest).optional(),
  otherwise: z.literal(true).optional(),
  then: z.record(z.string(), z.unknown()),
});
export type DecisionRow = z.infer<typeof DecisionRow>;

export const DecisionExample = z.strictObject({
  given: z.record(z.string(), z.unknown()),
  expect: z.union([z.record(z.string(), z.unknown()), z.literal('no-row')]),
});

export const DecisionFile = z.strictObject({
  decision: z.string(),
  title: z.string(),
  spec: z.string().optional(),
  hitPolicy: z.enum(['first', 'unique', 'collect']),
  rows: z.array(DecisionRow).min(1),
  examples: z.array(DecisionExample).default([]),
});
export type DecisionFile = z.infer<typeof DecisionFile>;

// ---------------------------------------------------------------- values and reference data

export const LimitsFile = z.strictObject({
  provisionalBookingLifetime: IsoDuration,
  offerBookableFor: IsoDuration,
  onHoldExtension: IsoDuration,
  onHoldLatestBeforeDeparture: IsoDuration,
  cleanupWindow: IsoDuration,
  accessTokenLifetime: IsoDuration,
  seatWidthPx: z.number().int().positive(),
  requestBodyLimitBytes: z.number().int().positive(),
  languages: z.array(Language).min(1),
  defaultOsdmVersion: z.string().regex(/^\d+\.\d+(\.\d+)?$/),
});
export type Limits = z.infer<typeof LimitsFile>;

export const Currency = z.enum(['SEK', 'EUR']);
export const StationCodes = z.enum(['x_swe', 'uic']);

export const SalesApplicationsFile = z.strictObject({
  salesApplications: z.record(
    z.string().regex(/^[A-Z0-9_]+$/),
    z.strictObject({
      currency: Currency,
      stationCodes: StationCodes,
      osdmVersion: z.string().optional(),
      permissions: z.strictObject({ onHold: z.boolean(), release: z.boolean(), placeMap: z.boolean() }),
    }),
  ),
});
export type SalesApplication = SalesApplicationsFile['salesApplications'][string] & { code: string };
type SalesApplicationsFile = z.infer<typeof SalesApplicationsFile>;

export const ClientsFile = z.strictObject({
  clients: z.record(
    z.string(),
    z.strictObject({
      secretHash: z.string().regex(/^scrypt\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/, 'scrypt$<salt>$<hash> (see `signalbox hash-secret`)'),
      scopes: z.array(z.enum(['reseller', 'customer'])).min(1),
      salesApplications: z.array(z.string()).default([]),
    }),
  ),
  subscriptionKeys: z.array(z.string().min(8)).default([]),
});
export type Clients = z.infer<typeof ClientsFile>;

export const StationsFile = z.strictObject({
  operatorCarrier: z.strictObject({ ref: z.string().regex(/^urn:x_swe:carrier:\w+$/), name: z.string() }),
  stations: z.array(
    z.strictObject({
      name: z.string(),
      x_swe: z.string().regex(/^urn:x_swe:stn:\d{9}$/).optional(),
      uic: z.string().regex(/^urn:uic:stn:\d{7}$/).optional(),
      agglomeration: z.string().optional(),
      country: z.string().length(2),
    }),
  ),
});
export type Station = z.infer<typeof StationsFile>['stations'][number];

export const TravelClass = z.enum(['FIRST', 'SECOND']);
export const Flexibility = z.enum(['NON_FLEXIBLE', 'FULL_FLEXIBLE']);
export type Flexibility = z.infer<typeof Flexibility>;
export const ProductCategoryCode = z.enum(['ST', 'RE', 'IC', 'NT', 'EN', 'RB']);
export type ProductCategoryCode = z.infer<typeof ProductCategoryCode>;
const YesNo = z.enum(['YES', 'NO', 'WITH_CONDITION']);

export const ProductsFile = z.strictObject({
  productCategories: z.record(
    ProductCategoryCode,
    z.strictObject({
      name: LocalizedText,
      night: z.boolean(),
      reservation: z.enum(['mandatory', 'none']),
      products: z.array(z.string()).min(1),
    }),
  ),
  flexibilities: z.record(
    Flexibility,
    z.strictObject({ idSuffix: z.string(), priceFactor: z.number().positive(), refundable: YesNo, exchangeable: YesNo }),
  ),
  products: z.record(
    z.string(),
    z.strictObject({
      id: z.string(),
      travelClass: TravelClass,
      serviceClass: z.enum(['STANDARD', 'HIGH']),
      accommodationType: z.enum(['SEAT', 'COUCHETTE', 'BERTH']),
      compartment: z.enum(['PRIVATE', 'SHARED']).optional(),
      priceFactor: z.number().positive(),
      summary: LocalizedText,
    }),
  ),
});
export type Products = z.infer<typeof ProductsFile>;
export type Product = Products['products'][string] & { code: string };

export const TariffFile = z.strictObject({
  currency: z.literal('SEK'),
  roundTo: z.number().int().positive(),
  categories: z.record(ProductCategoryCode, z.strictObject({ base: z.number().int().nonnegative(), perMinute: z.number().nonnegative() })),
  currencies: z.record(z.string(), z.strictObject({ rate: z.number().positive(), roundTo: z.number().int().positive() })),
  vat: z.strictObject({ percentage: z.number().nonnegative(), countryCode: z.string().length(2) }),
});
export type Tariff = z.infer<typeof TariffFile>;

export const ErrorsFile = z.strictObject({
  errors: z.record(
    z.string().regex(/^(86\d{3}|[A-Z][A-Z0-9_]+)$/),
    z.strictObject({ status: z.number().int().min(400).max(599), title: LocalizedText, detail: LocalizedText }),
  ),
  /** Warnings in successful responses (OSDM 3.4 WarningCollection). */
  warnings: z.record(z.string().regex(/^[A-Z][A-Z0-9_]+$/), z.strictObject({ detail: LocalizedText })),
});
export type ErrorCatalogue = z.infer<typeof ErrorsFile>['errors'];
export type WarningCatalogue = z.infer<typeof ErrorsFile>['warnings'];

export const CardsFile = z.strictObject({
  reductionCards: z.record(
    z.string().regex(/^[A-Z0-9_]+$/),
    z.strictObject({ effect: z.enum(['passengerType', 'trafficDisturbanceTicket']), name: LocalizedText }),
  ),
});
export type Cards = z.infer<typeof CardsFile>;

/** Which schema each file in rules/ follows; a decision table is any file whose first key is `decision`. */
export const valueFiles = {
  'limits.yaml': LimitsFile,
  'sales-applications.yaml': SalesApplicationsFile,
  'clients.yaml': ClientsFile,
  'stations.yaml': StationsFile,
  'products.yaml': ProductsFile,
  'tariff.yaml': TariffFile,
  'errors.yaml': ErrorsFile,
  'cards.yaml': CardsFile,
} as const;
