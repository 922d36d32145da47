import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * Request bodies and an HTTP client for the bench. The trips are the scenario fixtures
 * (scenarios/fixtures/trips.yaml), moved to depart 10 days from now so that they never lie in the past.
 */
export const root = fileURLToPath(new URL('..', import.meta.url));

type Json = Record<string, unknown>;
const fixtures = parse(readFileSync(`${root}scenarios/fixtures/trips.yaml`, 'utf8')) as { trips: Record<string, Json> };

/** The bench's travel day, `daysLater` days after the first: the same timetable's trains on another day. */
const travelDay = (daysLater: number) => new Date(Date.now() + (10 + daysLater) * 86_400_000).toISOString().slice(0, 10);

/** A fixture trip with every date replaced by the bench's travel day. */
function trip(name: 'upp-sto-gbg' | 'sto-gbg-0800', daysLater: number): Json {
  const t = fixtures.trips[name];
  if (!t) throw new Error(`scenarios/fixtures/trips.yaml has no trip ${name}`);
  return JSON.parse(JSON.stringify(t).replace(/\d{4}-\d{2}-\d{2}T/g, `${travelDay(daysLater)}T`)) as Json;
}

/** Ages of up to 9 passengers: a mix of adults, children, an infant, a youth, a senior. */
export const AGES = [35, 8, 40, 17, 70, 1, 22, 5, 64] as const;

export function offersBody(passengers: number, tripName: 'upp-sto-gbg' | 'sto-gbg-0800' = 'upp-sto-gbg', daysLater = 0): Json {
  return {
    tripSpecifications: [trip(tripName, daysLater)],
    anonymousPassengerSpecifications: AGES.slice(0, passengers).map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age })),
    offerSearchCriteria: { currency: 'SEK', travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] },
  };
}

const NAMES = [
  ['Anna', 'Svensson'],
  ['Olle', 'Svensson'],
  ['Eva', 'Berg'],
  ['Lars', 'Berg'],
  ['Karin', 'Lind'],
  ['Nils', 'Lind'],
  ['Maja', 'Ek'],
  ['Erik', 'Ek'],
  ['Sara', 'Holm'],
] as const;

/** A booking request for the first offer of an offers response, with every passenger named. */
export function bookingBody(offerId: string, passengers: number, externalRef: string): Json {
  const refs = AGES.slice(0, passengers).map((_, i) => `p${i + 1}`);
  return {
    externalRef,
    offers: [{ offerId, passengerRefs: refs }],
    passengerSpecifications: refs.map((ref, i) => ({
      externalRef: ref,
      type: 'PERSON',
      age: AGES[i],
      detail: { firstName: NAMES[i]![0], lastName: NAMES[i]![1] },
    })),
    purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } },
  };
}

export const CLIENT = 'demo-reseller';
const SECRET = 'demo-reseller-secret';
/** The token request's form fields (client credentials of the sandbox's demo reseller). */
export const tokenForm = () => new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT, client_secret: SECRET }).toString();
const requestorHeader = (salesApplication = 'WEB_SE') => Buffer.from(JSON.stringify({ salesApplication, salesUnitCode: 'BENCH' })).toString('base64');

export interface Reply {
  status: number;
  body: unknown;
  text: string;
}

/** A small keep-alive HTTP client (node:http), cheaper than fetch for a load loop. */
export function client(base: string, maxSockets = 64) {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets });
  function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: {
            ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            if ((res.headers['content-type'] ?? '').includes('json') && text) {
              try {
                parsed = JSON.parse(text);
              } catch {
                /* keep the text */
              }
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.end(payload);
      else req.end();
    });
  }
  return { send, close: () => agent.destroy() };
}

/** A token from /oauth2/token (client credentials, form fields), to be reused for the whole case. */
export async function token(base: string): Promise<string> {
  const c = client(base, 1);
  try {
    const res = await c.send('POST', '/oauth2/token', tokenForm(), { 'content-type': 'application/x-www-form-urlencoded' });
    const t = (res.body as { access_token?: string }).access_token;
    if (res.status !== 200 || !t) throw new Error(`POST /oauth2/token answered ${res.status}: ${res.text.slice(0, 300)}`);
    return t;
  } finally {
    c.close();
  }
}

/** The headers of every Reseller API call: the bearer token, the Requestor, the language. */
export const resellerHeaders = (accessToken: string): Record<string, string> => ({
  authorization: `Bearer ${accessToken}`,
  requestor: requestorHeader(),
  'accept-language': 'en-GB',
});
