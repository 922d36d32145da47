import { describe, expect, it } from 'vitest';
import { testServer } from './helpers/server.ts';

/** The Customer API as a partner sees it (spec §4.3, §2.12, §5 rule 5; CONTRACT §3, §7, §10). */
describe('Customer API', async () => {
  const server = await testServer();
  const KEY = 'demo-subscription-key';

  async function lookup(path: string, body: unknown, headers: Record<string, string | undefined> = {}, client = 'demo-reseller') {
    const all: Record<string, string | undefined> = {
      authorization: `Bearer ${await server.token(client)}`,
      'ocp-apim-subscription-key': KEY,
      'content-type': 'application/json',
      ...headers,
    };
    const res = await server.app.inject({
      method: 'POST',
      url: `/customer${path}`,
      headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined)),
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  }

  const anna = {
    firstName: 'Anna',
    lastName: 'Svensson',
    memberNumber: '1000000001',
    level: 'GOLD',
    email: 'anna.svensson@example.se',
    phoneNumber: '+46701234567',
    travelPasses: [
      {
        cardNumber: 'GOLD-0001',
        cardType: 'OPR_ANNUAL_GOLD',
        description: 'Annual pass Gold, first class, all trains',
        validFrom: '2026-01-01',
        validTo: '2027-12-31',
      },
    ],
  };
  const annaInSwedish = { ...anna, travelPasses: [{ ...anna.travelPasses[0], description: 'Årskort Guld, 1 klass, alla tåg' }] };

  describe('200: the record itself', () => {
    it('finds a customer by e-mail', async () => {
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual(anna);
    });

    it('finds a customer by member number, with the pass described in Swedish for Accept-Language sv-SE', async () => {
      const res = await lookup('/contacts/prio-number', { memberNumber: '1000000001' }, { 'accept-language': 'sv-SE' });
      expect(res.status).toBe(200);
      expect(res.headers['content-language']).toBe('sv-SE');
      expect(res.body).toEqual(annaInSwedish);
    });

    it('finds a customer by personal identity number', async () => {
      const res = await lookup('/contacts/ssn', { ssn: '198001011234' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(anna);
    });

    it('finds a contract by contract number', async () => {
      const res = await lookup('/contracts/contract-number', { contractNumber: 'CORP-ACTIVE-1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        organizationName: 'Exempelbolaget AB',
        department: 'Inköp och resor',
        contractNumber: 'CORP-ACTIVE-1',
        organizationNumber: '556123-4567',
      });
    });

    it('finds an inactive contract too, with department null when it has none', async () => {
      const res = await lookup('/contracts/contract-number', { contractNumber: 'CORP-INACTIVE-1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        organizationName: 'Gamla Bolaget AB',
        department: null,
        contractNumber: 'CORP-INACTIVE-1',
        organizationNumber: '556765-4321',
      });
    });

    it('leaves out memberNumber, level and travelPasses a customer does not have', async () => {
      const res = await lookup('/contacts/email', { email: 'johan.berg@example.se' });
      expect(res.body).toEqual({ firstName: 'Johan', lastName: 'Berg', email: 'johan.berg@example.se', phoneNumber: '+46704567890' });
    });

    it('describes a monthly and a multi-ride pass, with the rides it has left', async () => {
      const erik = await lookup('/contacts/prio-number', { memberNumber: '1000000002' }, { 'accept-language': 'sv-SE' });
      expect(erik.body.travelPasses).toEqual([
        {
          cardNumber: 'MONTHLY-0001',
          cardType: 'OPR_MONTHLY',
          description: 'Månadskort mellan två stationer, 2 klass',
          validFrom: '2026-11-15',
          validTo: '2026-12-14',
        },
      ]);
      const maria = await lookup('/contacts/prio-number', { memberNumber: '1000000003' });
      expect(maria.body.travelPasses).toEqual([
        {
          cardNumber: 'MULTI-0001',
          cardType: 'OPR_MULTIRIDE_10',
          description: 'Ten-ride card, second class, high-speed trains',
          validFrom: '2026-06-01',
          validTo: '2027-05-31',
          ridesLeft: 7,
        },
      ]);
    });
  });

  describe('matching', () => {
    it('takes the e-mail URL-encoded (spec §4.3) and in any case', async () => {
      expect((await lookup('/contacts/email', { email: 'anna.svensson%40example.se' })).body).toEqual(anna);
      expect((await lookup('/contacts/email', { email: 'Anna.Svensson%40Example.SE' })).body).toEqual(anna);
      expect((await lookup('/contacts/email', { email: 'ANNA.SVENSSON@EXAMPLE.SE' })).body).toEqual(anna);
    });

    it('takes an identity number written YYYYMMDD-NNNN', async () => {
      expect((await lookup('/contacts/ssn', { ssn: '19800101-1234' })).body).toEqual(anna);
    });

    it('ignores the query string', async () => {
      const res = await lookup('/contacts/email?email=someone.else%40example.se&debug=1', { email: 'anna.svensson@example.se' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(anna);
    });

    it('does not take the member number for the identity number, nor the card number for the member number', async () => {
      expect((await lookup('/contacts/ssn', { ssn: '1000000001' })).status).toBe(404);
      expect((await lookup('/contacts/prio-number', { memberNumber: 'GOLD-0001' })).status).toBe(404);
    });
  });

  describe('404 RESOURCE_NOT_FOUND', () => {
    it.each([
      ['/contacts/email', { email: 'nobody@example.se' }],
      ['/contacts/prio-number', { memberNumber: '9999999999' }],
      ['/contacts/ssn', { ssn: '190001011111' }],
      ['/contracts/contract-number', { contractNumber: 'CORP-NONE-1' }],
    ])('%s with an unknown value', async (path, body) => {
      const res = await lookup(path, body);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404, pointers: [{ requestPointer: `#/${Object.keys(body)[0]}` }] });
    });
  });

  describe('400 86001 with a pointer', () => {
    const fields: Array<[string, string]> = [
      ['/contacts/email', 'email'],
      ['/contacts/prio-number', 'memberNumber'],
      ['/contacts/ssn', 'ssn'],
      ['/contracts/contract-number', 'contractNumber'],
    ];
    it.each(fields)('%s: %s missing, null, empty or blank', async (path, field) => {
      for (const [body, detail] of [
        [{}, 'required'],
        [{ [field]: null }, 'must not be null'],
        [{ [field]: '' }, 'must not be empty'],
        [{ [field]: '   ' }, 'must not be empty'],
        [{ [field]: 42 }, 'must be a string'],
      ] as const) {
        const res = await lookup(path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ code: '86001', status: 400, title: 'Validation error', pointers: [{ requestPointer: `#/${field}`, detail }] });
      }
    });

    it('names a field that is not part of the request', async () => {
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se', phone: '+46701234567' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#/phone', detail: 'unknown field "phone"' }] });
    });

    it('no body at all names the missing field; malformed JSON points at the body', async () => {
      const none = await lookup('/contacts/ssn', undefined, { 'content-type': undefined });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#/ssn', detail: 'required' }] });
      const broken = await lookup('/contacts/ssn', '{"ssn": ');
      expect(broken.body).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#' }] });
    });

    it('in Swedish too', async () => {
      const res = await lookup('/contacts/email', { email: '' }, { 'accept-language': 'sv-SE' });
      expect(res.body).toMatchObject({ code: '86001', title: 'Valideringsfel' });
    });
  });

  describe('authentication (spec §5 rule 5, CONTRACT §3)', () => {
    it('no subscription key → 401 Problem naming the header', async () => {
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se' }, { 'ocp-apim-subscription-key': undefined });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'X_SUBSCRIPTION_KEY_INVALID', status: 401, pointers: [{ requestPointer: 'header:Ocp-Apim-Subscription-Key' }] });
    });

    it("an unknown subscription key → 401, in the caller's language", async () => {
      const res = await lookup(
        '/contacts/email',
        { email: 'anna.svensson@example.se' },
        { 'ocp-apim-subscription-key': 'not-a-known-key', 'accept-language': 'sv-SE' },
      );
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'X_SUBSCRIPTION_KEY_INVALID', title: 'Prenumerationsnyckel saknas eller är okänd' });
    });

    it('no token → 401 UNAUTHORIZED with WWW-Authenticate', async () => {
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se' }, { authorization: undefined });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body.code).toBe('UNAUTHORIZED');
    });

    it('a token without the customer scope → 403 FORBIDDEN', async () => {
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se' }, {}, 'demo-other');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });

    it('a token asked for with scope reseller only → 403, even for a client that may hold customer', async () => {
      const grant = await server.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret&scope=reseller',
      });
      const res = await lookup('/contacts/email', { email: 'anna.svensson@example.se' }, { authorization: `Bearer ${grant.json().access_token}` });
      expect(res.status).toBe(403);
    });

    it('an unauthenticated caller learns nothing about its body', async () => {
      const res = await lookup('/contacts/email', '{"email": ', { 'ocp-apim-subscription-key': undefined });
      expect(res.status).toBe(401);
    });
  });
});
