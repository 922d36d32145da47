import type { z } from 'zod';
import type { OfferCollectionResponse } from '../../../engine/model/osdm/index.ts';
import type { OffersTriedExplained } from '../../http/openapi/studio-price-schemas.ts';
import type { ReferenceData, TripList } from '../../http/openapi/studio-schemas.ts';
import { api, type Problem } from './api.ts';
import { h, setView, show } from './dom.ts';
import { mode } from './mode.ts';
import { priceExplanation } from './price-explanation.ts';
import { problemBox } from './problems.ts';
import { traceList, type Trace } from './traces.ts';
import { money } from './values.ts';

/** The Reseller API's offers answer, as its own schema describes it. */
type OffersAnswer = z.output<typeof OfferCollectionResponse>;

/** Try a whole offers request: a fixture trip, passengers' ages and cards, answered with the rule trace behind it. */
export async function offersView(): Promise<void> {
  const [trips, reference] = await Promise.all([api<TripList>('GET', '/trips'), api<ReferenceData>('GET', '/reference')]);
  if (!trips.ok) return setView('Try an offers request', problemBox(trips.data));
  if (!reference.ok) return setView('Try an offers request', problemBox(reference.data));
  const cards = Object.keys((reference.data.cards as { reductionCards: Record<string, unknown> }).reductionCards);
  const salesApplications = reference.data.salesApplications as Array<{ code: string }>;
  const passengers = h('fieldset', { id: 'passengers' }, h('legend', {}, 'Passengers'));
  const addPassenger = (age = 35, card = '') => {
    const n = passengers.querySelectorAll('.passenger').length + 1;
    passengers.append(
      h(
        'div',
        { class: 'passenger' },
        h('label', {}, `Passenger ${n} age `, h('input', { type: 'number', min: 0, max: 130, value: age, name: 'age', required: true, size: 4 })),
        h(
          'label',
          {},
          ' card ',
          h(
            'select',
            { name: 'card' },
            h('option', { value: '' }, 'none'),
            cards.map((c) => h('option', { value: c, selected: c === card }, c)),
          ),
        ),
      ),
    );
  };
  addPassenger(17, 'SWE_STUDENT');
  const trip = h(
    'select',
    { name: 'trip' },
    trips.data.map((t) => h('option', { value: t.name }, `${t.name} (${t.summary})`)),
  );
  const salesApplication = h(
    'select',
    { name: 'salesApplication' },
    salesApplications.map((s) => h('option', { value: s.code }, s.code)),
  );
  const out = h('div', { id: 'offers-result', 'aria-live': 'polite' });
  const ask = async () => {
    const body = {
      trip: trip.value,
      salesApplication: salesApplication.value,
      passengers: [...passengers.querySelectorAll('.passenger')].map((p) => {
        const card = p.querySelector<HTMLSelectElement>('[name=card]')!.value;
        return { age: Number(p.querySelector<HTMLInputElement>('[name=age]')!.value), cards: card ? [card] : [] };
      }),
    };
    show(out, h('p', { class: 'busy' }, 'Asking for offers…'));
    const answer = await api<OffersTriedExplained>('POST', '/offers', body);
    if (!answer.ok) return show(out, problemBox(answer.data));
    show(out, answered(answer.data));
  };
  const form = h(
    'form',
    {
      'aria-label': 'Offers request',
      onsubmit: (e) => {
        e.preventDefault();
        void ask();
      },
    },
    h('label', {}, 'Trip ', trip),
    ' ',
    h('label', {}, 'Sales application ', salesApplication),
    passengers,
    h('button', { type: 'button', onclick: () => addPassenger() }, 'Add a passenger'),
    ' ',
    h('button', { type: 'submit' }, 'Ask for offers'),
  );
  setView(
    'Try an offers request',
    h('p', {}, 'An offers request from a fixture trip of the scenarios and the passengers\u2019 ages and cards, answered by the rules now serving.'),
    form,
    out,
  );
}

type Offer = NonNullable<OffersAnswer['offers']>[number];
const COLUMNS = 9;

/**
 * An offer's row: what it sells (class, comfort: service class and accommodation, flexibility) and its prices, with a
 * button that opens the row beneath it, the prices explained term by term.
 */
function offerRows(o: Offer, explanation: OffersTriedExplained['explanations'][number] | undefined): HTMLElement[] {
  const summary = o.offerSummary;
  const details = h('tr', { class: 'offer-explanation', hidden: true }, h('td', { colspan: COLUMNS }));
  const open = (button: HTMLButtonElement) => {
    const opening = details.hidden;
    if (opening && explanation && !details.firstElementChild!.hasChildNodes()) {
      const answered = new Map<string, number>([
        ...[...(o.admissionOfferParts ?? []), ...(o.reservationOfferParts ?? []), ...(o.ancillaryOfferParts ?? [])].map((p) => [p.id, p.price.amount] as const),
        ['minimalPrice', summary.minimalPrice.amount],
      ]);
      details.firstElementChild!.append(priceExplanation(explanation, answered));
    }
    details.hidden = !opening;
    button.setAttribute('aria-expanded', String(opening));
  };
  const row = h(
    'tr',
    { 'data-offer': o.offerId },
    h(
      'td',
      {},
      h('code', {}, o.offerId),
      mode.sandbox ? [h('br'), h('a', { href: `#/seats?type=OFFER&id=${encodeURIComponent(o.offerId)}` }, 'seat map')] : '',
    ),
    h('td', {}, o.products?.[0]?.summary ?? '', h('br'), h('code', {}, o.products?.[0]?.id ?? '')),
    h('td', { class: 'travel-class' }, summary.overallTravelClass ?? ''),
    h('td', { class: 'comfort' }, [summary.overallServiceClass?.type, summary.overallAccommodationType].filter(Boolean).join(' · ')),
    h('td', { class: 'flexibility' }, summary.overallFlexibility ?? ''),
    h(
      'td',
      {},
      (o.admissionOfferParts ?? [])
        .flatMap((p) => p.appliedPassengerTypes ?? [])
        .map((t) => `${t.passengerRef}: ${t.type} (${t.description})`)
        .join(', '),
    ),
    h('td', { class: 'num admission-price' }, (o.admissionOfferParts ?? []).map((p) => money(p.price)).join(', ')),
    h('td', { class: 'num minimal-price' }, money(summary.minimalPrice)),
    h(
      'td',
      {},
      explanation
        ? h(
            'button',
            { type: 'button', class: 'explain-price', 'aria-expanded': 'false', onclick: (e) => open(e.currentTarget as HTMLButtonElement) },
            'Explain',
          )
        : '',
    ),
  );
  return [row, details];
}

/** The offers (or the Problem) beside the rule trace that decided them. */
function answered(data: OffersTriedExplained): HTMLElement {
  const response = data.response as OffersAnswer;
  const offers = response.offers ?? [];
  return h(
    'div',
    { class: 'offers-answer' },
    h(
      'section',
      { 'aria-labelledby': 'offers-h' },
      h('h3', { id: 'offers-h' }, data.status === 200 ? `${offers.length} offers` : `Refused (${data.status})`),
      data.status !== 200 ? problemBox(data.response as Problem) : '',
      offers.length
        ? h(
            'table',
            { class: 'grid small offers' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'Offer'),
                h('th', {}, 'Product'),
                h('th', {}, 'Class'),
                h('th', {}, 'Comfort'),
                h('th', {}, 'Flexibility'),
                h('th', {}, 'Passenger types'),
                h('th', {}, 'Admission prices'),
                h('th', {}, 'Minimal price'),
                h('th', {}, 'Why this price'),
              ),
            ),
            h(
              'tbody',
              {},
              offers.map((o, i) => offerRows(o, data.explanations[i])),
            ),
          )
        : '',
      (response.warnings?.warnings ?? []).map((w) => h('p', { class: 'note' }, w.detail)),
      h(
        'details',
        {},
        h('summary', {}, 'The request and the whole answer (JSON)'),
        h('pre', {}, JSON.stringify(data.request, null, 2)),
        h('pre', {}, JSON.stringify(data.response, null, 2)),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'trace-h' },
      h('h3', { id: 'trace-h' }, 'Rule trace'),
      h('p', { class: 'note' }, 'Each decision the engine made, the row that decided and the facts it saw. Follow a row to its table.'),
      traceList(data.traces as Trace[]),
    ),
  );
}
