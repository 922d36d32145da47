import { z } from 'zod';
import { CoachLayoutsFile, FleetFile } from './seat-schemas.ts';
import { AccommodationType, TravelClass } from './facts.ts';
import { jreOperatorNames, timeOperatorNames } from './operators.ts';
import { isTimeZone } from './calendar.ts';

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

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** json-rules-engine's operators, `between`, and the time operators (operators.ts). */
const Operator = z.enum([...jreOperatorNames, 'between', ...timeOperatorNames]);

/** `fact: value` (equal) or `fact: { operator: value, … }` (all must hold). */
const FactTest = z.union([Scalar, z.partialRecord(Operator, z.unknown())]);

const DecisionRow = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case words joined by hyphens')
    .refine((s) => s !== 'error', {
      message: 'a row may not be called "error": json-rules-engine rejects events of that type',
    }),
  description: z.string().optional(),
  when: z.record(z.string(), FactTest).optional(),
  otherwise: z.literal(true).optional(),
  then: z.record(z.string(), z.unknown()),
});

const DecisionExample = z.strictObject({
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

/** A limit on failed attempts at a credential: so many per client and per address within the window (docs/limits.md). */
const FailedAttempts = z.strictObject({
  perClient: z.number().int().positive(),
  perAddress: z.number().int().positive(),
  window: IsoDuration,
});

const LimitsFile = z.strictObject({
  provisionalBookingLifetime: IsoDuration,
  offerBookableFor: IsoDuration,
  aftersalesOfferValidFor: IsoDuration,
  bookingHorizon: IsoDuration,
  accessTokenLifetime: IsoDuration,
  requestBodyLimitBytes: z.number().int().positive(),
  languages: z.array(Language).min(1),
  defaultOsdmVersion: z.string().regex(/^\d+\.\d+(\.\d+)?$/),
  requestTimeout: IsoDuration.describe('A request, body included, must have arrived within this time; else 408.'),
  requestArrayLimit: z.number().int().positive().describe('No array in a request body may hold more elements than this.'),
  problemPointerLimit: z.number().int().positive().describe('A Problem lists at most this many pointers, then says how many more there are.'),
  failedTokenAttempts: FailedAttempts.describe('Failed token requests allowed per claimed client and per address within the window; beyond them 429.'),
  failedSubscriptionKeys: FailedAttempts.describe(
    "Wrong subscription keys allowed per client of the request's token and per address within the window; beyond them 429.",
  ),
  studioJournalSize: z.number().int().positive().max(10_000).describe("The studio's request journal on a sandbox keeps this many latest requests."),
  studioJournalBodyCharacters: z.number().int().positive().describe('A journal entry keeps at most this many characters of an answer; a longer one is cut.'),
  studioJournalPersonalData: z
    .array(z.string().min(1))
    .describe("Fields whose values the studio's journal masks when an analyst reads other clients' requests."),
  studioSimulationCases: z.number().int().positive().describe('A simulation in the studio answers at most this many cases, boundary cases included.'),
  releasePollInterval: IsoDuration.describe(
    'How often a server reads the list of rule releases from its store again, so a release another process scheduled goes live at its instant without a restart (docs/releases.md).',
  ),
  releaseEvidenceExamples: z
    .number()
    .int()
    .positive()
    .max(100)
    .describe("A draft's evidence pack shows this many examples of each kind of change its replay of the journal finds (docs/releases.md)."),
  sandboxFaults: z
    .strictObject({
      delayMax: IsoDuration.describe('The longest `delay` a request may ask for; a longer one is refused (86001).'),
      retryAfter: IsoDuration.describe('What `unavailable` answers in Retry-After when the request names no `retry-after`.'),
      retryAfterMax: IsoDuration.describe('The longest `retry-after` of `unavailable` a request may ask for; a longer one is refused (86001).'),
      // -99 is the mechanism's own bound: a price that falls by 100 % or more is no price.
      priceChangePercent: z.number().int().min(-99).describe('How much `price-changed` moves the price when the request names no `percent`.'),
      percentMin: z.number().int().min(-99).describe('The largest fall (a negative `percent`) `price-changed` may ask for; a larger one is refused (86001).'),
      percentMax: z.number().int().min(0).describe('The largest rise (`percent`) `price-changed` may ask for; a larger one is refused (86001).'),
      fulfillmentPending: IsoDuration.describe('How long `fulfillment-pending` keeps fulfillments CONFIRMED when the request names no `seconds`.'),
      pendingMax: IsoDuration.describe('The longest `seconds` of `fulfillment-pending` a request may ask for; a longer one is refused (86001).'),
    })
    .refine((f) => f.percentMin <= f.priceChangePercent && f.priceChangePercent <= f.percentMax, {
      path: ['priceChangePercent'],
      message: 'must lie within percentMin…percentMax: a default the request could not ask for itself',
    })
    .describe('The faults a sandbox answers on demand (X-Sandbox-Fault, docs/api-and-integration.md).'),
});
export type Limits = z.infer<typeof LimitsFile>;

/** The currencies prices are given in (spec §1.6): a sales application's. */
export const Currency = z.enum(['SEK', 'EUR']);
export type Currency = z.infer<typeof Currency>;
const StationCodes = z.enum(['x_swe', 'uic']);

const SalesApplicationsFile = z.strictObject({
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

const ClientsFile = z.strictObject({
  clients: z.record(
    z.string(),
    z.strictObject({
      secretHash: z.string().regex(/^scrypt\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/, 'scrypt$<salt>$<hash> (see `signalbox hash-secret`)'),
      scopes: z.array(z.enum(['reseller', 'customer', 'analyst', 'approver'])).min(1),
      salesApplications: z.array(z.string()).default([]),
    }),
  ),
  subscriptionKeys: z.array(z.string().min(8)).default([]),
});
export type Clients = z.infer<typeof ClientsFile>;

const StationsFile = z.strictObject({
  operatorCarrier: z.strictObject({ ref: z.string().regex(/^urn:x_swe:carrier:\w+$/), name: z.string() }),
  stations: z.array(
    z.strictObject({
      name: z.string(),
      x_swe: z
        .string()
        .regex(/^urn:x_swe:stn:\d{9}$/)
        .optional(),
      uic: z
        .string()
        .regex(/^urn:uic:stn:\d{7}$/)
        .optional(),
      agglomeration: z.string().optional(),
      country: z.string().length(2),
      airport: z.boolean().optional(),
    }),
  ),
});
export type Station = z.infer<typeof StationsFile>['stations'][number];

export const Flexibility = z.enum(['NON_FLEXIBLE', 'FULL_FLEXIBLE']);
export type Flexibility = z.infer<typeof Flexibility>;
/** A product category's code (urn:x_swe:sbc:<code>); products.yaml lists them, the other files are checked against it. */
export const ProductCategoryCode = z.string().regex(/^[A-Z][A-Z0-9]*$/, 'upper-case letters and digits, such as ST');
export type ProductCategoryCode = z.infer<typeof ProductCategoryCode>;
const YesNo = z.enum(['YES', 'NO', 'WITH_CONDITION']);

const ProductsFile = z.strictObject({
  productCategories: z.record(
    ProductCategoryCode,
    z.strictObject({
      name: LocalizedText,
      night: z.boolean(),
      /** How fast the trains are: a multi-ride pass for a faster train also buys slower ones (spec §2.7 rule 8). */
      speedRank: z.number().int().nonnegative(),
      reservation: z.enum(['mandatory', 'none']),
      products: z.array(z.string()).min(1),
      /** EuroNight's own child age range applies on these trains (spec §2.5 rule 7; rules/refund-guards.yaml fact euroNight). */
      euroNight: z.boolean().default(false),
    }),
  ),
  /** Spec §2.4: the one accommodation sub type every answer shows. */
  accommodationSubType: z.string().regex(/^[A-Z0-9_]+$/),
  flexibilities: z.record(Flexibility, z.strictObject({ idSuffix: z.string(), priceFactor: z.number().positive(), refundable: YesNo, exchangeable: YesNo })),
  products: z.record(
    z.string(),
    z.strictObject({
      id: z.string(),
      travelClass: TravelClass,
      serviceClass: z.enum(['STANDARD', 'HIGH']),
      accommodationType: AccommodationType,
      compartment: z.enum(['PRIVATE', 'SHARED']).optional(),
      /** Spec §2.4, §2.5 rule 4: each passenger has a private compartment alone. */
      compartmentEach: z.boolean().default(false),
      priceFactor: z.number().positive(),
      summary: LocalizedText,
    }),
  ),
});
export type Products = z.infer<typeof ProductsFile>;
export type Product = Products['products'][string] & { code: string };

const TariffFile = z.strictObject({
  currency: z.literal('SEK'),
  roundTo: z.number().int().positive(),
  categories: z.record(ProductCategoryCode, z.strictObject({ base: z.number().int().nonnegative(), perMinute: z.number().nonnegative() })),
  currencies: z.record(z.string(), z.strictObject({ rate: z.number().positive(), roundTo: z.number().int().positive() })),
  vat: z.strictObject({ percentage: z.number().nonnegative(), countryCode: z.string().length(2) }),
});
export type Tariff = z.infer<typeof TariffFile>;

const ErrorsFile = z
  .strictObject({
    errors: z.record(
      z.string().regex(/^(86\d{3}|[A-Z][A-Z0-9_]+)$/),
      z.strictObject({ status: z.number().int().min(400).max(599), title: LocalizedText, detail: LocalizedText }),
    ),
    /** Warnings in successful responses (OSDM 3.4 WarningCollection). */
    warnings: z.record(z.string().regex(/^[A-Z][A-Z0-9_]+$/), z.strictObject({ detail: LocalizedText })),
    /** Phrases an error's parameters are made of (a reason, an operation, a resource), in both languages. */
    texts: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case words joined by hyphens'), LocalizedText).default({}),
  })
  .superRefine((file, ctx) => {
    // A placeholder only one language names would reach the other language's callers as "{name}".
    const names = (t: string) =>
      [...t.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .sort()
        .join();
    const same = (path: PropertyKey[], t: LocalizedText) => {
      if (names(t['en-GB']) !== names(t['sv-SE']))
        ctx.addIssue({
          code: 'custom',
          path,
          message: `en-GB names {${names(t['en-GB'])}}, sv-SE names {${names(t['sv-SE'])}}: both texts need the same placeholders`,
        });
    };
    for (const [code, e] of Object.entries(file.errors)) same(['errors', code, 'detail'], e.detail);
    for (const [key, t] of Object.entries(file.texts)) same(['texts', key], t);
  });
export type ErrorCatalogue = z.infer<typeof ErrorsFile>['errors'];
export type WarningCatalogue = z.infer<typeof ErrorsFile>['warnings'];
export type TextCatalogue = z.infer<typeof ErrorsFile>['texts'];

/** A regular expression written in a rule file (JavaScript syntax); a broken one is a `file:line` problem at load. */
const RegexPattern = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression (JavaScript syntax)');

const CardsFile = z.strictObject({
  reductionCards: z.record(
    z.string().regex(/^[A-Z0-9_]+$/),
    z.strictObject({ effect: z.enum(['passengerType', 'trafficDisturbanceTicket']), name: LocalizedText }),
  ),
  loyaltyCard: z.strictObject({ code: z.string(), numberPattern: RegexPattern }),
  identityNumberPattern: RegexPattern,
  phoneNumberPattern: RegexPattern,
});
export type Cards = z.infer<typeof CardsFile>;

// ---------------------------------------------------------------- customers, their passes, contracts (Customer API)

const UpperCode = z.string().regex(/^[A-Z0-9_]+$/, 'upper-case letters, digits and _');
const StationRef = z.string().regex(/^urn:(x_swe|uic):stn:\d+$/, 'a station ref such as urn:x_swe:stn:740000004');

/** Spec §2.12, §4.2, §2.7 rules 7–8, CONTRACT §4b, §10: who the Customer API knows and what their passes allow. */
const CustomersFile = z
  .strictObject({
    loyaltyLevels: z.array(UpperCode).min(1),
    passTypes: z.record(
      UpperCode,
      z.strictObject({
        name: LocalizedText,
        kind: z.enum(['annual', 'monthly', 'multiRide']),
        /** Needs an identity or loyalty number (spec §4.2 rule 4); fixes the passenger's name (§2.7 rule 7). */
        personal: z.boolean(),
        travelClass: TravelClass,
        /** Valid only between two stations, either way (spec §4.2 rule 2); each card names them. */
        bound: z.boolean().default(false),
        /** Rides of a multi-ride pass when new. */
        rides: z.number().int().positive().optional(),
        /** The trains the pass is for; absent: every train. */
        productCategories: z.array(ProductCategoryCode).min(1).optional(),
      }),
    ),
    customers: z.array(
      z.strictObject({
        firstName: z.string().min(1),
        lastName: z.string().min(1),
        memberNumber: z.string().regex(/^\d+$/, 'digits').optional(),
        level: UpperCode.optional(),
        email: z.email(),
        /** Checked against cards.yaml phoneNumberPattern when the rule set is compiled. */
        phoneNumber: z.string().min(1),
        identityNumber: z.string().regex(/^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{4}$/, 'twelve digits YYYYMMDDNNNN (spec §4.2 rule 4)'),
        travelPasses: z
          .array(
            z.strictObject({
              cardNumber: z.string().min(1),
              cardType: UpperCode,
              validFrom: z.iso.date(),
              validTo: z.iso.date(),
              origin: StationRef.optional(),
              destination: StationRef.optional(),
              ridesLeft: z.number().int().nonnegative().optional(),
            }),
          )
          .default([]),
      }),
    ),
    contracts: z.array(
      z.strictObject({
        contractNumber: z.string().min(1),
        organizationName: z.string().min(1),
        organizationNumber: z.string().min(1),
        department: z.string().optional(),
        /** An inactive contract is still found by the Customer API; offers with it are refused (86012). */
        active: z.boolean(),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const seen = new Map<string, string>();
    const unique = (what: string, value: string | undefined, path: PropertyKey[]) => {
      if (value === undefined) return;
      const first = seen.get(`${what}:${value}`);
      if (first) issue(path, `${what} ${value} is already used at ${first}`);
      else seen.set(`${what}:${value}`, path.join('.'));
    };
    for (const [code, type] of Object.entries(file.passTypes)) {
      if ((type.kind === 'multiRide') !== (type.rides !== undefined))
        issue(['passTypes', code, 'kind'], 'a multiRide pass type states its rides; other kinds have none');
    }
    file.customers.forEach((c, i) => {
      unique('e-mail', c.email.toLowerCase(), ['customers', i, 'email']);
      unique('member number', c.memberNumber, ['customers', i, 'memberNumber']);
      unique('identity number', c.identityNumber, ['customers', i, 'identityNumber']);
      if (c.level !== undefined && !file.loyaltyLevels.includes(c.level))
        issue(['customers', i, 'level'], `unknown loyalty level ${c.level}; loyaltyLevels: ${file.loyaltyLevels.join(', ')}`);
      c.travelPasses.forEach((p, j) => {
        const at = ['customers', i, 'travelPasses', j];
        unique('card number', p.cardNumber, [...at, 'cardNumber']);
        if (p.validTo < p.validFrom) issue([...at, 'validTo'], 'validTo is before validFrom');
        const type = file.passTypes[p.cardType];
        if (!type) return issue([...at, 'cardType'], `unknown pass type ${p.cardType}; passTypes: ${Object.keys(file.passTypes).join(', ')}`);
        if (type.bound && (!p.origin || !p.destination || p.origin === p.destination))
          issue(at, `${p.cardType} is bound to two stations: give a different origin and destination`);
        if (!type.bound && (p.origin || p.destination)) issue(at, `${p.cardType} is not bound to stations: no origin or destination`);
        if ((type.kind === 'multiRide') !== (p.ridesLeft !== undefined)) issue(at, `ridesLeft is for multi-ride passes, and each of them needs it`);
        if (type.rides !== undefined && p.ridesLeft !== undefined && p.ridesLeft > type.rides)
          issue([...at, 'ridesLeft'], `more than the ${type.rides} rides of ${p.cardType}`);
      });
    });
    file.contracts.forEach((c, i) => unique('contract number', c.contractNumber, ['contracts', i, 'contractNumber']));
  });
export type Customers = z.infer<typeof CustomersFile>;
export type CustomerEntry = Customers['customers'][number];
export type TravelPassEntry = CustomerEntry['travelPasses'][number];
export type ContractEntry = Customers['contracts'][number];

const AncillaryItemsFile = z.strictObject({
  items: z.record(
    z.string().regex(/^[A-Z0-9_]+$/),
    z.strictObject({
      type: z.string(),
      price: z.number().int().nonnegative(),
      inheritsFlexibility: z.boolean().optional(),
      summary: LocalizedText,
    }),
  ),
});
export type AncillaryItems = z.infer<typeof AncillaryItemsFile>['items'];

const TimetableFile = z.strictObject({
  timeZone: z
    .string()
    .refine(isTimeZone, 'an IANA time zone the platform knows, e.g. Europe/Stockholm')
    .describe("The operator's time zone: operating days, pass validity days and ages on the day of travel are read in it."),
  cancellations: z.array(
    z.strictObject({
      vehicleNumber: z.string(),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD'),
      reason: z.string().optional(),
    }),
  ),
});
export type Timetable = z.infer<typeof TimetableFile>;

const PassFulfillment = z.strictObject({ type: z.enum(['PASS_REFERENCE', 'PASS_CHIP', 'ETICKET']), media: z.string() });
const PassProductsFile = z.strictObject({
  fulfillment: z.strictObject({ multiRide: PassFulfillment, monthly: PassFulfillment, annual: PassFulfillment }),
  products: z.record(z.string().regex(/^[A-Z0-9_]+$/), z.strictObject({ price: z.number().int().nonnegative(), validFor: IsoDuration })),
});
export type PassProducts = z.infer<typeof PassProductsFile>;

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
  'ancillary-items.yaml': AncillaryItemsFile,
  'timetable.yaml': TimetableFile,
  'pass-products.yaml': PassProductsFile,
  'customers.yaml': CustomersFile,
  'fleet.yaml': FleetFile,
  'coach-layouts.yaml': CoachLayoutsFile,
} as const;
