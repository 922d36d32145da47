import type { OffersTriedExplained } from '../../http/openapi/studio-price-schemas.ts';
import { h, type Child } from './dom.ts';
import { rowLink } from './traces.ts';
import { shortAt } from './values.ts';

type Explanation = OffersTriedExplained['explanations'][number];
type Part = Explanation['parts'][number];
type Calculation = Explanation['minimalPrice'];
type Step = Calculation['steps'][number];
type Source = Step['sources'][number];

/** What each term of a price is, in the analyst's words. */
const TERMS: Record<Step['term'], string> = {
  base: 'Base fare of the category',
  perMinute: 'Per minute × minutes',
  productFactor: 'Product price factor',
  flexibilityFactor: 'Flexibility price factor: the full fare',
  fareFactor: 'Passenger\u2019s fare factor',
  travelPass: 'Travel pass pays',
  roundTo: 'Rounded to',
  currencyRate: 'Currency rate',
  currencyRoundTo: 'Rounded to',
  reservationPrice: 'Reservation price',
  ancillaryPrice: 'Item price',
  ancillaryFactor: 'Share of the item price paid',
  passPrice: 'Pass price',
  passenger: 'Passenger\u2019s share',
  part: 'Offer part',
};

const OPS: Record<Step['op'], string> = { plus: '+', times: '×', round: 'round to' };

/** Minor units as a price: whole öre or cents with two decimals, a fraction of one (before rounding) exactly. */
function minor(amount: number, currency: string): string {
  const major = amount / 100;
  const text = Number.isInteger(amount) ? major.toFixed(2) : String(Math.round(major * 1e6) / 1e6);
  return `${text} ${currency}`;
}

/** Where a term comes from: a decision's row, linked to its table explaining this case, or a reference-data value's line. */
function sourceView(s: Source): HTMLElement {
  if ('decision' in s) return h('span', { class: 'source' }, `${s.decision} \u203a `, rowLink(s.decision, s, s.facts), ` (${shortAt(s.at)})`);
  return h('span', { class: 'source' }, h('code', { class: 'reference-at', title: `${s.at}: ${s.path.join('.')}` }, shortAt(s.at)), ` ${s.path.join('.')}`);
}

function valueOf(step: Step): string {
  if (step.of) return `${minor(step.of[0], step.currency)} × ${step.of[1]} min`;
  return step.op === 'times' ? String(step.value) : minor(step.value, step.currency);
}

/** One calculation, a row per step with the amount after it, ending in the price; `answered` is the answer's price. */
function calculationView(c: Calculation, answered: number | undefined, what: string): HTMLElement {
  return h(
    'table',
    { class: 'grid small price-steps', 'aria-label': what },
    h('thead', {}, h('tr', {}, h('th', {}, 'Term'), h('th', {}, ''), h('th', {}, 'Value'), h('th', {}, 'Amount'), h('th', {}, 'From'))),
    h(
      'tbody',
      {},
      c.steps.map((s) =>
        h(
          'tr',
          { class: 'price-step', 'data-term': s.term, 'data-op': s.op, 'data-value': s.value },
          h('td', {}, TERMS[s.term], s.ref ? [' ', h('code', {}, s.ref)] : ''),
          h('td', { class: 'op' }, OPS[s.op]),
          h('td', { class: 'num' }, valueOf(s)),
          h('td', { class: 'num' }, minor(s.amount, s.currency)),
          h('td', {}, s.sources.map(sourceView)),
        ),
      ),
      h(
        'tr',
        { class: 'price-total', 'data-amount': c.amount },
        h('th', { scope: 'row' }, '= Price'),
        h('td', {}, ''),
        h('td', {}, c.vat !== undefined ? `VAT included: ${minor(c.vat, c.currency)}` : 'no VAT'),
        h('td', { class: 'num' }, h('strong', {}, minor(c.amount, c.currency))),
        h(
          'td',
          { class: answered === c.amount ? 'matches' : 'differs' },
          answered === undefined ? '' : answered === c.amount ? 'the price in the answer' : `the answer says ${minor(answered, c.currency)}`,
        ),
      ),
    ),
  );
}

const PART_NAMES: Record<Part['kind'], string> = { admission: 'Admission', reservation: 'Reservation', ancillary: 'Ancillary' };

/**
 * An offer's prices term by term (engine.explainOfferPrices): each part, each collective share, then the minimal price
 * as the sum of its parts. `answered` maps part ids (and `minimalPrice`) to the answer's amounts, which each total meets.
 */
export function priceExplanation(explanation: Explanation, answered: ReadonlyMap<string, number>): HTMLElement {
  const part = (p: Part): Child =>
    h(
      'section',
      { class: 'explained-part', 'data-part': p.id, 'data-kind': p.kind },
      h(
        'h4',
        {},
        `${PART_NAMES[p.kind]} `,
        h('code', {}, p.id),
        ` for ${p.passengerRefs.join(', ')}`,
        p.legId ? ` on leg ${p.legId}` : '',
        p.item ? ` (${p.item})` : '',
        p.inMinimalPrice ? ' · in the minimal price' : '',
      ),
      (p.passengers ?? []).map((share) => calculationView(share, undefined, `${share.passengerRef}\u2019s share of ${p.id}`)),
      calculationView(p, answered.get(p.id), `${PART_NAMES[p.kind]} ${p.id}`),
    );
  return h(
    'div',
    { class: 'price-explanation', 'data-offer': explanation.offerId },
    explanation.parts.map(part),
    h(
      'section',
      { class: 'explained-part', 'data-part': 'minimalPrice' },
      h('h4', {}, 'Minimal price: the admissions and the mandatory ancillaries'),
      calculationView(explanation.minimalPrice, answered.get('minimalPrice'), 'Minimal price'),
    ),
  );
}
