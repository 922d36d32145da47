import type { DecisionName, FactsOf } from '../rules/facts.ts';
import type { DecisionResult, DecisionTrace } from '../rules/decision.ts';
import type { DecidedOf, OutcomeOf, RejectOutcome } from '../rules/outcomes.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { SalesApplication } from '../rules/schemas.ts';
import type { IdSource, Requestor, SoldPass } from './records.ts';
import { phrase, violation } from '../rules/violation.ts';

/**
 * Everything one engine call may use: the rules, the time and an id source handed in by the caller,
 * who is asking, and the traces of the decisions made so far (returned with the result).
 */
export interface Context {
  readonly rules: RuleSet;
  readonly now: Date;
  readonly ids: IdSource;
  readonly requestor: Requestor;
  readonly salesApplication: SalesApplication;
  readonly traces: DecisionTrace[];
  /** Key that signs ticket barcodes (configuration, never rules/). */
  readonly ticketKey: string;
  /** The passes sold through the API that the request names (the caller loads them, Store.soldPasses; spec §4.2 rule 6). */
  readonly soldPasses: readonly SoldPass[];
}

export function makeContext(rules: RuleSet, requestor: Requestor, now: Date, ids: IdSource, ticketKey: string, soldPasses: readonly SoldPass[] = []): Context {
  const salesApplication = rules.salesApplications.get(requestor.salesApplication);
  if (!salesApplication) {
    throw violation('FORBIDDEN', { reason: phrase('sales-application-unknown', { salesApplication: requestor.salesApplication }) }, [
      { requestPointer: 'header:Requestor' },
    ]);
  }
  return { rules, now, ids, requestor, salesApplication, traces: [], ticketKey, soldPasses };
}

/** Evaluates a decision and keeps its trace in the context; its outcome is typed by the outcome catalogue (rules/outcomes.ts). */
export function decide<D extends DecisionName>(ctx: Context, name: D, facts: FactsOf<D>): DecisionResult<DecidedOf<D>> {
  return evaluated(ctx, name, facts);
}

function evaluated<O>(ctx: Context, name: DecisionName, facts: object): DecisionResult<O> {
  const result = ctx.rules.decisions[name].evaluate<O>(facts as Record<string, unknown>);
  ctx.traces.push(result.trace);
  return result;
}

/**
 * A decision whose rows either `reject` with an error code or accept: raises the rejection, pointing at
 * the row's `pointer`, else at `at` (the request field the facts came from); returns what an accepting row
 * says (undefined when no row matched: the decision has nothing against it).
 * A rejection's texts are filled from the row's params, the facts and the sales application (as `check` expects).
 */
export function enforce<D extends DecisionName>(ctx: Context, name: D, facts: FactsOf<D>, at?: string): OutcomeOf<D> | undefined {
  const { outcome } = evaluated<Partial<RejectOutcome>>(ctx, name, facts);
  if (outcome?.reject) {
    throw violation(
      outcome.reject,
      { salesApplication: ctx.salesApplication.code, ...facts, ...outcome.params },
      outcome.pointer ? `#${outcome.pointer}` : at,
      ctx.traces,
    );
  }
  return outcome as OutcomeOf<D> | undefined;
}
