import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { findCustomer, lookupContract, phrase, renderCustomer, RuleViolation, type CustomerKey, type Language, type Phrase } from '../../../engine/index.ts';
import type { Service } from '../../service.ts';
import type { Customers } from '../../../engine/rules/schemas.ts';
import { ContractLookupRequest, EmailLookupRequest, IdentityNumberLookupRequest, MemberNumberLookupRequest } from '../../../engine/model/osdm/customer-requests.ts';
import { parseRequest } from '../../../engine/rules/validate.ts';

/**
 * The Customer API under /customer (spec §4.3, §5 rule 5, CONTRACT §3, §7): four lookups, each answering the
 * record itself (200) or RESOURCE_NOT_FOUND (404). Query strings play no part.
 */
const lookups: Array<{
  path: string;
  schema: z.ZodType<Record<string, string>>;
  field: string;
  resource: Phrase;
  find(customers: Customers, value: string, language: Language, service: Service): Promise<object | undefined>;
}> = [
  { path: '/contacts/email', schema: EmailLookupRequest, field: 'email', resource: phrase('resource-customer'), find: (c, email, l, s) => customerRecord(c, { email }, l, s) },
  { path: '/contacts/prio-number', schema: MemberNumberLookupRequest, field: 'memberNumber', resource: phrase('resource-customer'), find: (c, memberNumber, l, s) => customerRecord(c, { memberNumber }, l, s) },
  { path: '/contacts/ssn', schema: IdentityNumberLookupRequest, field: 'ssn', resource: phrase('resource-customer'), find: (c, ssn, l, s) => customerRecord(c, { ssn }, l, s) },
  { path: '/contracts/contract-number', schema: ContractLookupRequest, field: 'contractNumber', resource: phrase('resource-contract'), find: async (c, number) => lookupContract(c, number) },
];

/** The customer's record with the passes the store knows of: bought ones, and the rides multi-ride passes have left. */
async function customerRecord(customers: Customers, key: CustomerKey, language: Language, service: Service) {
  const customer = findCustomer(customers, key);
  return customer && renderCustomer(customers, customer, language, await service.heldPasses(customer));
}

const SUBSCRIPTION_KEY = 'ocp-apim-subscription-key';
const digest = (s: string) => createHash('sha256').update(s).digest();

/** The subscription keys' digests, per rule set: `serve --watch` may swap the rules at any request. */
const keyDigests = new WeakMap<object, Buffer[]>();
const keysOf = (rules: FastifyInstance['engine']['rules']): Buffer[] => {
  let keys = keyDigests.get(rules);
  if (!keys) keyDigests.set(rules, (keys = rules.clients.subscriptionKeys.map(digest)));
  return keys;
};

export async function customerRoutes(app: FastifyInstance) {
  /** Compared as digests in constant time, so a key cannot be guessed byte by byte. */
  const subscriptionKeyOf = (request: FastifyRequest) => {
    const keys = keysOf(app.engine.rules);
    const header = request.headers[SUBSCRIPTION_KEY];
    const given = Array.isArray(header) ? header[0] : header;
    if (!given || !keys.some((key) => timingSafeEqual(key, digest(given.trim())))) {
      throw new RuleViolation('X_SUBSCRIPTION_KEY_INVALID', {}, [{ requestPointer: 'header:Ocp-Apim-Subscription-Key' }]);
    }
  };

  // Before the body is read, so an unauthenticated caller learns nothing about its request. The key is checked
  // first, as the operator's API gateway does, then the token (scope `customer`).
  app.addHook('onRequest', async (request) => {
    subscriptionKeyOf(request);
    await app.authenticate(request, 'customer');
  });

  for (const { path, schema, field, resource, find } of lookups) {
    app.post(path, async (request, reply) => {
      // No body at all reads as an empty object, so the answer names the missing field.
      const body = parseRequest(schema, request.body ?? {});
      const value = body[field]!;
      const record = await find(app.engine.rules.customers, value, request.language, app.service);
      if (!record) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource, id: value }, [{ requestPointer: `#/${field}` }]);
      return reply.send(record);
    });
  }
}
