import type { Context } from '../model/context.ts';
import { violation } from '../rules/violation.ts';

/**
 * Spec §2.2, §7 86012: a corporate code names a contract of customers.yaml; an inactive contract refuses
 * the request. Unknown codes are echoed like the rest (spec §2.3 rule 5: echoes, whether applied or not).
 */
export function checkCorporateCodes(ctx: Context, codes: ReadonlyArray<{ code: string }>): void {
  codes.forEach(({ code }, i) => {
    const contract = ctx.rules.customers.contracts.find((c) => c.contractNumber === code);
    if (contract && !contract.active) throw violation('86012', { code }, `#/corporateCodes/${i}/code`);
  });
}
