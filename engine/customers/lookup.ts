import type { z } from 'zod';
import type { ContractRecord as ContractRecordSchema, CustomerRecord as CustomerRecordSchema } from '../model/osdm/customer-response.ts';
import type { ContractEntry, CustomerEntry, Customers, Language, TravelPassEntry } from '../rules/schemas.ts';

/**
 * The Customer API's lookups (spec §4.3, CONTRACT §7) over rules/customers.yaml, and the facts of the passes
 * customers hold for the offer and booking rules. Pure: the caller hands in the loaded data.
 */

/** Spec §2.12 Customer, Contract and travel pass entry, as the Customer API answers them (shapes: engine/model/osdm/customer-response.ts). */
type CustomerRecord = z.infer<typeof CustomerRecordSchema>;
type ContractRecord = z.infer<typeof ContractRecordSchema>;

/** How a customer is looked up: the body of one of the three /contacts calls. */
export type CustomerKey = { email: string } | { memberNumber: string } | { ssn: string };

/**
 * Spec §4.3: the e-mail "must be URL encoded", so `anna.svensson%40example.se` is decoded first; a plain address
 * passes unchanged (a malformed escape is taken literally). E-mail addresses match regardless of case.
 */
function normalizeEmail(email: string): string {
  let decoded = email.trim();
  if (decoded.includes('%')) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      /* not an escape: keep it as given */
    }
  }
  return decoded.trim().toLowerCase();
}

/** A twelve-digit identity number may be written with a hyphen before its last four digits (YYYYMMDD-NNNN). */
function normalizeIdentityNumber(ssn: string): string {
  return ssn.trim().replace(/^(\d{8})[-+](\d{4})$/, '$1$2');
}

export function findCustomer(customers: Customers, key: CustomerKey): CustomerEntry | undefined {
  if ('email' in key) {
    const email = normalizeEmail(key.email);
    return customers.customers.find((c) => c.email.toLowerCase() === email);
  }
  if ('memberNumber' in key) {
    const number = key.memberNumber.trim();
    return customers.customers.find((c) => c.memberNumber === number);
  }
  const ssn = normalizeIdentityNumber(key.ssn);
  return customers.customers.find((c) => c.identityNumber === ssn);
}

function findContract(customers: Customers, contractNumber: string): ContractEntry | undefined {
  const number = contractNumber.trim();
  return customers.contracts.find((c) => c.contractNumber === number);
}

/**
 * What the store knows of a customer's passes (the caller loads it): the passes bought through the API
 * (spec §4.2 rule 6, Store.soldPasses by holder) and the rides each multi-ride pass has given on confirmed journeys.
 */
export interface HeldPasses {
  sold: readonly TravelPassEntry[];
  ridesGiven(pass: string): number;
}
const NOTHING_HELD: HeldPasses = { sold: [], ridesGiven: () => 0 };

export function renderCustomer(customers: Customers, customer: CustomerEntry, language: Language, held: HeldPasses = NOTHING_HELD): CustomerRecord {
  const passes = [...customer.travelPasses, ...held.sold];
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    ...(customer.memberNumber !== undefined ? { memberNumber: customer.memberNumber } : {}),
    ...(customer.level !== undefined ? { level: customer.level } : {}),
    email: customer.email,
    phoneNumber: customer.phoneNumber,
    ...(passes.length > 0
      ? {
          travelPasses: passes.map((p) => ({
            cardNumber: p.cardNumber,
            cardType: p.cardType,
            description: customers.passTypes[p.cardType]?.name[language] ?? p.cardType,
            validFrom: p.validFrom,
            validTo: p.validTo,
            // Spec §2.7 rule 8: the reference data only sets the start; each confirmed journey the pass pays for takes one.
            ...(p.ridesLeft !== undefined ? { ridesLeft: Math.max(0, p.ridesLeft - held.ridesGiven(p.cardNumber)) } : {}),
          })),
        }
      : {}),
  };
}

/** Spec §2.12: `department` may be null; a contract without one answers null. `active` is not part of the record. */
function renderContract(contract: ContractEntry): ContractRecord {
  return {
    organizationName: contract.organizationName,
    department: contract.department ?? null,
    contractNumber: contract.contractNumber,
    organizationNumber: contract.organizationNumber,
  };
}

/** POST /contacts/email, /contacts/prio-number, /contacts/ssn: the Customer record, or undefined (404). */
export function lookupCustomer(customers: Customers, key: CustomerKey, language: Language, held?: HeldPasses): CustomerRecord | undefined {
  const customer = findCustomer(customers, key);
  return customer && renderCustomer(customers, customer, language, held);
}

/** POST /contracts/contract-number: the Contract record, or undefined (404). Inactive contracts are found too. */
export function lookupContract(customers: Customers, contractNumber: string): ContractRecord | undefined {
  const contract = findContract(customers, contractNumber);
  return contract && renderContract(contract);
}
