import type { z } from 'zod';
import { findCustomer, lookupContract, phrase, renderCustomer, RuleViolation, type CustomerKey, type Language, type Phrase } from '../../../engine/index.ts';
import { type Customers, parseRequest } from '../../../engine/rules/index.ts';
import { ContractLookupRequest, EmailLookupRequest, IdentityNumberLookupRequest, MemberNumberLookupRequest } from '../../../engine/model/osdm/index.ts';
import type { Service } from '../../service/service.ts';
import * as S from '../openapi/schemas.ts';
import { json, operation, type Handler, type Operation } from './operation.ts';

/** The customer's record with the passes the store knows of: bought ones, and the rides multi-ride passes have left. */
async function customerRecord(customers: Customers, key: CustomerKey, language: Language, service: Service) {
  const customer = findCustomer(customers, key);
  return customer && renderCustomer(customers, customer, language, await service.heldPasses(customer));
}

/** A lookup by one field of the body: the record itself (200), or RESOURCE_NOT_FOUND (404). Query strings play no part. */
function lookup<F extends string>(
  schema: z.ZodType<Record<F, string>>,
  field: F,
  resource: Phrase,
  find: (customers: Customers, value: string, language: Language, service: Service) => Promise<object | undefined>,
): Handler {
  return async ({ request, service, body }) => {
    // No body at all reads as an empty object, so the answer names the missing field.
    const value = parseRequest(schema, body ?? {})[field];
    const record = await find(service.engine.rules.customers, value, request.language, service);
    if (!record) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource, id: value }, [{ requestPointer: `#/${field}` }]);
    return { body: record };
  };
}

const customerFound = json('The customer record itself (spec §2.12).', S.CustomerRecord);

/** The Customer API (spec §4.3, §5 rule 5, CONTRACT §3, §7): four lookups. */
export const customer: Operation[] = [
  operation({
    method: 'POST',
    path: '/customer/contacts/email',
    summary: 'Find a customer by e-mail',
    section: 'spec §4.3, CONTRACT §7',
    tag: 'Customer API',
    access: 'customer',
    description: 'The e-mail may be URL-encoded; case does not matter.',
    request: { schema: EmailLookupRequest, required: true },
    responses: { 200: customerFound },
    handle: lookup(EmailLookupRequest, 'email', phrase('resource-customer'), (c, email, l, s) => customerRecord(c, { email }, l, s)),
  }),
  operation({
    method: 'POST',
    path: '/customer/contacts/prio-number',
    summary: 'Find a customer by member number',
    section: 'spec §4.3, CONTRACT §7',
    tag: 'Customer API',
    access: 'customer',
    request: { schema: MemberNumberLookupRequest, required: true },
    responses: { 200: customerFound },
    handle: lookup(MemberNumberLookupRequest, 'memberNumber', phrase('resource-customer'), (c, memberNumber, l, s) =>
      customerRecord(c, { memberNumber }, l, s),
    ),
  }),
  operation({
    method: 'POST',
    path: '/customer/contacts/ssn',
    summary: 'Find a customer by personal identity number',
    section: 'spec §4.3, CONTRACT §7',
    tag: 'Customer API',
    access: 'customer',
    request: { schema: IdentityNumberLookupRequest, required: true },
    responses: { 200: customerFound },
    handle: lookup(IdentityNumberLookupRequest, 'ssn', phrase('resource-customer'), (c, ssn, l, s) => customerRecord(c, { ssn }, l, s)),
  }),
  operation({
    method: 'POST',
    path: '/customer/contracts/contract-number',
    summary: 'Find a corporate contract',
    section: 'spec §4.3, CONTRACT §7',
    tag: 'Customer API',
    access: 'customer',
    request: { schema: ContractLookupRequest, required: true },
    responses: { 200: json('The contract record itself (spec §2.12).', S.ContractRecord) },
    handle: lookup(ContractLookupRequest, 'contractNumber', phrase('resource-contract'), async (c, number) => lookupContract(c, number)),
  }),
];
