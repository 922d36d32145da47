import type { FastifyInstance } from 'fastify';
import { createEngine, type Call, type Engine } from '../../engine/index.ts';
import { virtualClock, type Clock } from '../../adapters/service/clock.ts';
import { sequentialIds } from '../../adapters/service/ids.ts';
import { buildServer, type ServerOptions } from '../../adapters/http/server.ts';
import { memoryStore } from '../../adapters/store/memory.ts';
import type { Store } from '../../adapters/store/store.ts';
import { osdmViolations } from './osdm.ts';

/** One engine for the whole test run: the rules load once. */
let shared: Engine | undefined;
export const engine = () => (shared ??= createEngine());

/** An engine call as the demo reseller's WEB_SE sales application makes it, at a fixed time, with readable ids. */
export const engineCall = (now = '2026-11-20T10:00:00+01:00'): Call => ({
  requestor: { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' },
  now: new Date(now),
  ids: sequentialIds(),
});

export const requestorHeader = (salesApplication = 'WEB_SE') => Buffer.from(JSON.stringify({ salesApplication, salesUnitCode: 'TEST' })).toString('base64');

export interface TestServer {
  app: FastifyInstance;
  clock: Clock;
  token(client?: string, secret?: string): Promise<string>;
  /** A Reseller API call with a valid token and the Requestor of `salesApplication`. */
  reseller(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

export async function testServer(
  options: {
    store?: Store;
    start?: string;
    salesApplication?: string;
    extensions?: ServerOptions['extensions'];
    journal?: boolean;
    journalPersonalData?: boolean;
  } = {},
): Promise<TestServer> {
  const clock = virtualClock(new Date(options.start ?? '2026-11-20T10:00:00+01:00'));
  const app = await buildServer({
    engine: engine(),
    store: options.store ?? memoryStore(),
    clock,
    ids: sequentialIds(),
    sandbox: true,
    jwtSecret: 'test-secret',
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.journal !== undefined ? { journal: options.journal } : {}),
    ...(options.journalPersonalData !== undefined ? { journalPersonalData: options.journalPersonalData } : {}),
  });
  const tokens = new Map<string, string>();
  const token = async (client = 'demo-reseller', secret = `${client}-secret`) => {
    const known = tokens.get(client);
    if (known) return known;
    const res = await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: `grant_type=client_credentials&client_id=${client}&client_secret=${secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const t = res.json().access_token as string;
    tokens.set(client, t);
    return t;
  };
  return {
    app,
    clock,
    token,
    async reseller(method, url, body, headers = {}) {
      const res = await app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${await token()}`,
          requestor: requestorHeader(options.salesApplication),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const answer = {
        status: res.statusCode,
        body: res.body
          ? (() => {
              try {
                return res.json();
              } catch {
                return res.body;
              }
            })()
          : undefined,
        headers: res.headers,
      };
      // Every Reseller API answer a test gets here is checked against OSDM 3.4 too (CONTRACT §4c).
      const broken = osdmViolations(method, url, answer.status, answer.body);
      if (broken.length > 0) throw new Error(`${method} ${url} → ${answer.status} breaks OSDM 3.4:\n  ${broken.join('\n  ')}`);
      return answer;
    },
  };
}

/**
 * A departure `days` after today on the system clock, at 07:00 UTC, and its arrival three hours later. For tests of
 * servers that run on the system clock (not a sandbox): a fixed date passes, and the trip is then refused as departed.
 */
function upcoming(days = 10): { departure: string; arrival: string } {
  const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return { departure: `${day}T07:00:00Z`, arrival: `${day}T10:00:00Z` };
}

/** `trip(category)` departing `days` after today on the system clock (`upcoming`). */
export function upcomingTrip(category = 'ST', days = 10) {
  const { departure, arrival } = upcoming(days);
  return trip(category, departure, arrival);
}

/** The fixture trip of scenarios/fixtures/trips.yaml, for code tests. */
export function trip(category = 'ST', departure = '2026-12-01T08:00:00+01:00', arrival = '2026-12-01T11:00:00+01:00') {
  return {
    externalRef: 'trip-1',
    legs: [
      {
        externalRef: 'leg-1',
        timedLeg: {
          start: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000001' }, serviceDeparture: { timetabledTime: departure } },
          end: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000002' }, serviceArrival: { timetabledTime: arrival } },
          service: {
            publishedServiceName: '421',
            vehicleNumbers: ['421'],
            productCategory: { productCategoryRef: `urn:x_swe:sbc:${category}` },
            carriers: [{ ref: 'urn:x_swe:carrier:74' }],
          },
        },
      },
    ],
  };
}

/** A token from the server's token endpoint for one of the demo clients of rules/clients.yaml. */
export async function demoTokenOf(app: FastifyInstance, client: 'demo-reseller' | 'demo-analyst' | 'demo-reviewer'): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: `grant_type=client_credentials&client_id=${client}&client_secret=${client}-secret`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return answer.json().access_token;
}

/** A Reseller API token for the demo reseller client. */
export const resellerTokenOf = (app: FastifyInstance): Promise<string> => demoTokenOf(app, 'demo-reseller');

/** The studio's analyst, as an Authorization header. */
export const analystAuthorization = async (app: FastifyInstance): Promise<string> => `Bearer ${await demoTokenOf(app, 'demo-analyst')}`;

export const passengers = (...ages: number[]) => ages.map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age }));
