import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { operations } from '../adapters/http/operations/index.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { missingOracle } from './helpers/oracle.ts';
import { engine, passengers, testServer, trip } from './helpers/server.ts';

/**
 * The operator's document is an oracle for requests (CONTRACT §4): every field a request table of the spec lists at a
 * place is accepted there, even where OSDM 3.4 lacks it. The fields are read from the spec's own tables (and, where
 * the spec names a body's fields in a sentence, from that sentence); the requests are those of the scenario corpus,
 * so the same requests also run against a live server and are checked against OSDM. A field the spec lists that no
 * accepted request of the corpus carries, at that place of that operation, fails here: the next objectType cannot be
 * lost unnoticed.
 */
const SPEC = new URL('../../shared/spec/reseller-api.md', import.meta.url).pathname;
const spec = existsSync(SPEC) ? readFileSync(SPEC, 'utf8') : undefined;
missingOracle('the spec request-table tests', spec ? undefined : `${SPEC} is not there (a checkout without ../shared)`);

/** The tables of the spec as caption → rows of cells; a caption is the heading or sentence just above the table. */
function tables(text: string): Map<string, string[][]> {
  const found = new Map<string, string[][]>();
  const lines = text.split('\n');
  let caption = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line.startsWith('|')) {
      if (line) caption = line.replace(/^#+\s*/, '').replace(/:$/, '');
      continue;
    }
    const rows: string[][] = [];
    for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
      const cells = lines[i]!.trim()
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim());
      if (!cells.every((c) => /^-+$/.test(c))) rows.push(cells);
    }
    found.set(caption, rows.slice(1)); // without the header row
  }
  return found;
}

/** `{a, b{c, d}, e[]}` (or a cell that holds one) → the paths it names: a, b.c, b.d, e. */
function bracedFields(text: string, prefix = ''): string[] {
  const open = text.indexOf('{');
  if (open < 0) return [];
  const fields: string[] = [];
  let depth = 0;
  let piece = '';
  for (const ch of text.slice(open + 1)) {
    if (ch === '{') depth++;
    if (ch === '}' && depth-- === 0) break;
    if (ch === ',' && depth === 0) {
      fields.push(...fieldsOfPiece(piece, prefix));
      piece = '';
    } else piece += ch;
  }
  return [...fields, ...fieldsOfPiece(piece, prefix)];
}
function fieldsOfPiece(piece: string, prefix: string): string[] {
  const name = /^\s*([A-Za-z][A-Za-z0-9]*)/.exec(piece)?.[1];
  if (!name) return [];
  const path = `${prefix}${name}`;
  return piece.includes('{') ? bracedFields(piece, `${path}.`) : [path];
}

/** A field path of a table row: the first cell (`start.stopPlaceRef`, `` `objectType` ``), plus what its type cell names in braces. */
function rowFields(row: string[]): string[] {
  const field = row[0]!.replace(/`/g, '');
  const type = row[1] ?? '';
  return [field, ...bracedFields(type, /^array/.test(type) ? `${field}.*.` : `${field}.`)];
}

/** Where a table's fields live: the operations whose requests carry them and the place in the body. */
interface Place {
  /** The caption of the table, as the spec writes it. */
  table: string;
  operations: readonly string[];
  /** Path in the body from its root, `*` for every element of an array. */
  at: string;
  /** Rows that hold no request field (an answer's, or a header's that another test covers). */
  skip?: readonly string[];
}
const OFFERS = ['POST /v3/offers'];
const BOOKING = ['POST /v3/booking', 'POST /v3/bookings'];
const PLACES: readonly Place[] = [
  { table: '2.2 Offer request (OfferCollectionRequest)', operations: OFFERS, at: '' },
  { table: 'Trip specification', operations: OFFERS, at: 'tripSpecifications.*' },
  { table: 'timedLeg', operations: OFFERS, at: 'tripSpecifications.*.legs.*.timedLeg' },
  { table: 'offerSearchCriteria', operations: OFFERS, at: 'offerSearchCriteria' },
  { table: 'Anonymous passenger specification', operations: OFFERS, at: 'anonymousPassengerSpecifications.*' },
  { table: 'Booking request', operations: BOOKING, at: '' },
];

/**
 * Bodies the spec describes in a sentence rather than a table: each field with the words of the spec that name it,
 * so that the test fails when the document says otherwise.
 */
const SENTENCES: ReadonlyArray<{ says: string; operations: readonly string[]; fields: readonly string[] }> = [
  {
    says: 'Passenger specification: externalRef (string), age (integer',
    operations: BOOKING,
    fields: [
      'passengerSpecifications.*.externalRef',
      'passengerSpecifications.*.age',
      'passengerSpecifications.*.type',
      'passengerSpecifications.*.detail.firstName',
      'passengerSpecifications.*.detail.lastName',
      'passengerSpecifications.*.detail.eMail',
      'passengerSpecifications.*.detail.phoneNumber',
      'passengerSpecifications.*.cards',
      'passengerSpecifications.*.prmNeeds',
    ],
  },
  {
    says: 'Ignored if present: gender, dateOfBirth, detail.address',
    operations: BOOKING,
    fields: ['passengerSpecifications.*.gender', 'passengerSpecifications.*.dateOfBirth', 'passengerSpecifications.*.detail.address'],
  },
  {
    says: 'Place selection is given in OfferSelection.placeSelections at booking creation or in BookingPatchRequest.placeSelections',
    operations: [...BOOKING, 'PATCH /v3/bookings/{bookingId}'],
    fields: ['offers.*.placeSelections', 'placeSelections'],
  },
  {
    says: '| PATCH | booking | placeSelections, payment methods (usedPaymentMethods)',
    operations: ['PATCH /v3/bookings/{bookingId}'],
    fields: ['usedPaymentMethods'],
  },
  {
    says: '| PATCH | passenger (by passenger.id) | complete passenger details |',
    operations: ['PATCH /v3/bookings/{bookingId}/passengers/{passengerId}'],
    fields: ['detail.firstName', 'detail.lastName', 'detail.email', 'detail.phoneNumber', 'age', 'cards'],
  },
  {
    says: '| PATCH | purchaser | complete customer details |',
    operations: ['PATCH /v3/bookings/{bookingId}/purchaser'],
    fields: ['detail.firstName', 'detail.lastName', 'detail.email', 'detail.phoneNumber'],
  },
  {
    says: 'refund offer; DELETE refund offer; confirm refund offer | all fulfillment ids of the ticket; optional overrule code',
    operations: ['POST /v3/bookings/{bookingId}/refund-offers'],
    fields: ['fulfillmentIds', 'overruleCode'],
  },
  {
    says: 'release offer | fulfillment ids; overrule code required',
    operations: ['POST /v3/bookings/{bookingId}/release-offers'],
    fields: ['fulfillmentIds', 'overruleCode'],
  },
  { says: 'onHoldOfferRequest.increaseTTL is ignored', operations: ['POST /v3/bookings/{bookingId}/on-hold-offer'], fields: ['increaseTTL'] },
  {
    says: '| POST | /exchange-offers | complete passenger set as original |',
    operations: ['POST /v3/bookings/{bookingId}/exchange-offers'],
    fields: ['objectType', 'fulfillmentIds', 'tripSpecifications', 'anonymousPassengerSpecifications', 'offerSearchCriteria'],
  },
];

/** The value at a path of a body, `*` meaning any element: whether some element carries it. */
function carries(body: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return body !== undefined;
  if (body === null || typeof body !== 'object') return false;
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(body) && body.some((x) => carries(x, rest));
  return carries((body as Record<string, unknown>)[head!], rest);
}

const templates = operations.map((op) => ({
  key: `${op.method} ${op.path}`,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const operationOf = (method: string, path: string) => templates.find((t) => t.key.startsWith(`${method} `) && t.pattern.test(path.split('?')[0]!))?.key;

describe.skipIf(!spec)("requests as the operator's document lists them (CONTRACT §4)", () => {
  const found = tables(spec ?? '');
  /** Every request body of the corpus that was accepted (2xx), by operation. */
  const accepted = (async () => {
    const bodies = new Map<string, unknown[]>();
    const target = inProcess(engine());
    for (const file of scenarioFiles(['scenarios'])) {
      const result = await runScenario(file, target, { secrets: DEMO_SECRETS });
      for (const step of result.steps) {
        if (!step.request || !step.response || step.response.status >= 300) continue;
        const op = operationOf(step.request.method, step.request.path);
        if (op) bodies.set(op, [...(bodies.get(op) ?? []), step.request.body]);
      }
    }
    return bodies;
  })();
  const missing = async (operations: readonly string[], fields: readonly string[]) => {
    const bodies = await accepted;
    return fields.filter((f) => !operations.some((op) => (bodies.get(op) ?? []).some((b) => carries(b, f.split('.')))));
  };

  it('reads the request tables it knows from the spec', () => {
    for (const place of PLACES) expect(found.get(place.table)?.length, place.table).toBeGreaterThan(0);
    expect(found.get('Card kinds')?.length).toBeGreaterThan(0);
    for (const s of SENTENCES) expect(spec, s.says).toContain(s.says);
  });

  for (const place of PLACES) {
    it(`every field of the table "${place.table}" is carried by an accepted ${place.operations.join(' or ')}`, async () => {
      const fields = (found.get(place.table) ?? []).flatMap(rowFields).map((f) => (place.at ? `${place.at}.${f}` : f));
      expect(await missing(place.operations, fields)).toEqual([]);
    });
  }

  it('every card kind of the table "Card kinds" is accepted in an offer request', async () => {
    const bodies = (await accepted).get('POST /v3/offers') ?? [];
    const cards = bodies
      .flatMap(
        (b) => (b as { anonymousPassengerSpecifications?: Array<{ cards?: Array<{ type: string; code: string }> }> }).anonymousPassengerSpecifications ?? [],
      )
      .flatMap((p) => p.cards ?? []);
    const kinds = (found.get('Card kinds') ?? []).map(([type, code]) => `${type} ${/^\w+/.exec(code ?? '')![0]}`);
    expect(kinds.filter((k) => !cards.some((c) => `${c.type} ${c.code}` === k))).toEqual([]);
  });

  for (const s of SENTENCES) {
    it(`every field of "${s.says.replace(/\|/g, '').trim()}" is carried by an accepted ${s.operations.join(' or ')}`, async () => {
      expect(await missing(s.operations, s.fields)).toEqual([]);
    });
  }

  it('a Requestor header with every field of the table "2.1 Requestor header object" is accepted', async () => {
    const fields = (found.get('2.1 Requestor header object (Reseller API)') ?? []).map(([name]) => name!);
    expect(fields).toContain('organizationCode');
    // Required fields get a registered value; an optional one may be empty (spec §2.1: "not used; may be empty").
    const values: Record<string, string> = { salesApplication: 'WEB_SE', salesUnitCode: 'WEB' };
    const requestor = Object.fromEntries(fields.map((f) => [f, values[f] ?? '']));
    const server = await testServer();
    const answer = await server.reseller(
      'POST',
      '/v3/offers',
      { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) },
      { requestor: Buffer.from(JSON.stringify(requestor)).toString('base64') },
    );
    expect(answer.status).toBe(200);
  });

  it('every body field of the Customer API table (spec §4.3) is carried by an accepted lookup', async () => {
    const rows = found.get('4.3 Customer API') ?? [];
    expect(rows).toHaveLength(4);
    const lacking = [];
    for (const [method, path, body] of rows) {
      const op = `${method} /customer/${path!.replace(/^\//, '')}`;
      // `{email: string, required, not null, …}`: the field is the name before the colon.
      const field = /\{\s*(\w+)\s*:/.exec(body ?? '')![1]!;
      lacking.push(...(await missing([op], [field])).map((f) => `${op} ${f}`));
    }
    expect(lacking).toEqual([]);
  });
});
