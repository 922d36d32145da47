import type { EditImpact, ExpectationUpdate } from '../../../http/openapi/studio-schemas.ts';
import { h } from '../dom.ts';
import { factLine, json, shortAt, valueView } from '../values.ts';

type Impact = NonNullable<EditImpact['impact']>;
type Step = Impact['scenarios'][number];

const amount = (minor: number | null) => (minor === null ? '–' : (minor / 100).toFixed(2));
const signed = (minor: number) => `${minor > 0 ? '+' : minor < 0 ? '−' : '±'}${(Math.abs(minor) / 100).toFixed(2)}`;

/**
 * What an edit would change, the failing scenario steps first: each with what it expects and what the edited rules
 * answer instead, and a button to expect that instead in the same change; then every offer price of the price probes
 * that changes, old and new; the decision outcomes; the texts; the steps that would pass again; the other steps whose
 * answers change.
 */
export function impactView(x: Impact, chosen: readonly ExpectationUpdate[], expectInstead: (us: ExpectationUpdate[]) => void): HTMLElement {
  const s = x.summary;
  const failing = x.scenarios.filter((c) => c.verdict?.to === 'failed');
  const fixed = x.scenarios.filter((c) => c.verdict?.from === 'failed' && c.verdict.to === 'passed');
  const others = x.scenarios.filter((c) => !failing.includes(c) && !fixed.includes(c));
  const anything = s.changedRows + s.changedTexts + s.changedOfferPrices + s.changedSteps > 0;
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  return h(
    'div',
    { class: 'impact' },
    h(
      'p',
      { class: failing.length ? 'bad' : anything ? 'note' : 'good', role: 'status' },
      !anything
        ? 'No change: every boundary case, offer price and scenario step answers as before.'
        : [
            `This edit changes ${n(s.changedRows, 'decision outcome')} (${n(s.changedCases, 'boundary case')}), ${n(s.changedTexts, 'text')}, `,
            `${n(s.changedOfferPrices, 'offer price')} and ${n(s.changedSteps, 'scenario step')}. `,
            failing.length
              ? h('strong', {}, `${n(failing.length, 'step')} would fail: update their expectations below, or save with a reason.`)
              : 'No scenario step fails.',
          ],
    ),
    chosen.length ? h('p', { class: 'note' }, `${n(chosen.length, 'scenario expectation')} updated in this change, as the preview shows.`) : '',
    failing.length ? section('Scenario steps that would fail', failingSteps(failing, chosen, expectInstead)) : '',
    failing.length ? expectAllButton(failing, chosen, expectInstead) : '',
    x.prices.length ? h('section', { class: 'impact-part' }, h('h4', {}, 'Offer prices that change'), pricesByTrip(x.prices)) : '',
    x.decisions.length ? section('Decision outcomes that change', changedOutcomes(x.decisions)) : '',
    x.texts.length ? section('Texts that change', texts(x.texts)) : '',
    fixed.length ? section('Scenario steps that would pass again', otherSteps(fixed)) : '',
    others.length ? section('Other scenario steps whose answers change', otherSteps(others)) : '',
  );
}

const section = (title: string, content: HTMLElement) => h('section', { class: 'impact-part' }, h('h4', {}, title), h('div', { class: 'table-wrap' }, content));

/**
 * A link to the step in the Scenarios view, named by where it is written. It opens another tab, so the edit stays;
 * with its opener, so the tab keeps the analyst's token (kept per tab).
 */
const stepLink = (c: Step) =>
  h(
    'a',
    {
      href: `#/scenarios?file=${encodeURIComponent(c.scenario)}${c.at ? `&step=${encodeURIComponent(c.at)}` : ''}`,
      target: '_blank',
      rel: 'opener',
      title: c.at ?? c.scenario,
    },
    c.at ? shortAt(`${c.at}:1`) : c.scenario,
  );

type Mismatch = NonNullable<Step['mismatches']>[number];

/** The expectation update a mismatch offers: only where the step expects something the answer has. */
const updateOf = (c: Step, m: Mismatch): ExpectationUpdate | undefined =>
  c.at && m.keys && m.keys[0] === 'expect' && m.actual !== undefined ? { scenario: c.scenario, step: c.at, keys: m.keys, value: m.actual } : undefined;
const updatesOf = (c: Step): ExpectationUpdate[] => (c.mismatches ?? []).flatMap((m) => updateOf(c, m) ?? []);
/** Whether two updates change the same expectation (the later one replaces the earlier). */
export const sameUpdate = (a: ExpectationUpdate, b: ExpectationUpdate) => a.step === b.step && a.keys.join('/') === b.keys.join('/');

/** One click for every update the failing steps offer, when the analyst has read them and agrees with all. */
function expectAllButton(steps: Step[], chosen: readonly ExpectationUpdate[], expectInstead: (us: ExpectationUpdate[]) => void): HTMLElement | '' {
  const open = steps.flatMap(updatesOf).filter((u) => !chosen.some((c) => sameUpdate(c, u)));
  if (open.length === 0) return '';
  return h(
    'p',
    {},
    h('button', { type: 'button', id: 'expect-all', onclick: () => expectInstead(open) }, `Expect the new answers in all ${open.length} places above`),
  );
}

function failingSteps(steps: Step[], chosen: readonly ExpectationUpdate[], expectInstead: (us: ExpectationUpdate[]) => void): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Scenario steps that would fail' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Step'), h('th', {}, 'Where in the answer'), h('th', {}, 'Expected'), h('th', {}, 'Now'), h('th', {}, ''))),
    h(
      'tbody',
      {},
      steps.flatMap((c) =>
        (c.mismatches?.length ? c.mismatches : [undefined]).map((m, i) =>
          h(
            'tr',
            { class: 'failing-step' },
            i === 0
              ? h(
                  'td',
                  { rowspan: c.mismatches?.length ?? 1 },
                  stepLink(c),
                  ' ',
                  c.step,
                  c.verdict?.from === 'failed' ? h('div', { class: 'note' }, 'fails on the rules now serving too') : '',
                )
              : null,
            h('td', {}, m ? h('code', {}, m.path) : ''),
            h('td', {}, m ? h('code', {}, json(m.expected)) : ''),
            h('td', {}, m ? h('code', {}, json(m.actual)) : ''),
            h('td', {}, acceptButton(m && updateOf(c, m), chosen, expectInstead)),
          ),
        ),
      ),
    ),
  );
}

function acceptButton(
  update: ExpectationUpdate | undefined,
  chosen: readonly ExpectationUpdate[],
  expectInstead: (us: ExpectationUpdate[]) => void,
): HTMLElement | '' {
  if (!update) return '';
  const already = chosen.some((u) => sameUpdate(u, update));
  return h(
    'button',
    { type: 'button', class: 'expect-instead', disabled: already, onclick: () => expectInstead([update]) },
    already ? 'updated' : `Expect ${json(update.value)}`,
  );
}

/** The offer prices that change, trip by trip: the first trip open, each summed up by how many and by how much. */
function pricesByTrip(list: Impact['prices']): HTMLElement[] {
  const trips = [...new Set(list.map((p) => p.trip))];
  return trips.map((trip, i) => {
    const ofTrip = list.filter((p) => p.trip === trip);
    const changes = ofTrip.flatMap((p) => (p.from !== null && p.to !== null ? [p.to - p.from] : []));
    const range = changes.length ? `, ${signed(Math.min(...changes))} to ${signed(Math.max(...changes))} ${ofTrip[0]!.currency}` : '';
    return h(
      'details',
      { class: 'trip-prices', open: i === 0 },
      h('summary', {}, h('strong', {}, trip), `: ${ofTrip.length} offer price${ofTrip.length === 1 ? '' : 's'}${range}`),
      h('div', { class: 'table-wrap' }, prices(ofTrip)),
    );
  });
}

function prices(list: Impact['prices']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Offer prices that change' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Offer'),
        h('th', {}, 'Passengers'),
        h('th', { class: 'num' }, 'Before'),
        h('th', { class: 'num' }, 'After'),
        h('th', { class: 'num' }, 'Change'),
      ),
    ),
    h(
      'tbody',
      {},
      list.map((p) =>
        h(
          'tr',
          { class: 'price-change', 'data-trip': p.trip },
          h('td', {}, h('code', {}, p.offer), ' ', p.summary),
          h('td', {}, p.passengers),
          h('td', { class: 'num' }, `${amount(p.from)} ${p.currency}`),
          h('td', { class: 'num' }, `${amount(p.to)} ${p.currency}`),
          h('td', { class: 'num' }, p.from !== null && p.to !== null ? signed(p.to - p.from) : ''),
        ),
      ),
    ),
  );
}

export function changedOutcomes(decisions: Impact['decisions']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Changed decision outcomes' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Decision'), h('th', {}, 'Before'), h('th', {}, 'After'), h('th', {}, 'Cases that show it'))),
    h(
      'tbody',
      {},
      decisions.map((d) =>
        h(
          'tr',
          {},
          h('td', {}, d.decision),
          h('td', {}, `${d.from.row ?? 'none'} `, valueView(d.from.outcome)),
          h('td', {}, `${d.to.row ?? 'none'} `, valueView(d.to.outcome)),
          h(
            'td',
            {},
            d.cases.slice(0, 3).map((c) => h('div', {}, h('code', {}, factLine(c)))),
            d.cases.length > 3 ? `… ${d.cases.length - 3} more` : '',
          ),
        ),
      ),
    ),
  );
}

function texts(list: Impact['texts']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Texts that change' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Decision and row'), h('th', {}, 'Before'), h('th', {}, 'After'))),
    h(
      'tbody',
      {},
      list.map((t) => h('tr', {}, h('td', {}, `${t.decision} ${t.row ?? ''} · ${t.key}`), h('td', {}, valueView(t.from)), h('td', {}, valueView(t.to)))),
    ),
  );
}

function otherSteps(steps: Step[]): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Scenario steps that would change' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Scenario step'), h('th', {}, 'Status'), h('th', {}, 'Code'), h('th', {}, 'Prices'))),
    h(
      'tbody',
      {},
      steps.map((c) =>
        h(
          'tr',
          { class: 'changed-step' },
          h(
            'td',
            {},
            stepLink(c),
            ' ',
            c.step,
            c.missing
              ? h('div', { class: 'note' }, `not sent on the ${c.missing.on} rules: the scenario stopped at ${c.missing.failedStep ?? 'an earlier step'}`)
              : '',
          ),
          h('td', {}, c.status ? `${c.status.from} → ${c.status.to}` : ''),
          h('td', {}, c.code ? `${c.code.from ?? '–'} → ${c.code.to ?? '–'}` : ''),
          h(
            'td',
            {},
            c.prices.slice(0, 4).map((p) => h('div', {}, `${p.at}: ${amount(p.from)} → ${amount(p.to)} ${p.currency} (${signed(p.difference)})`)),
            c.prices.length > 4 ? `… ${c.prices.length - 4} more` : '',
          ),
        ),
      ),
    ),
  );
}
