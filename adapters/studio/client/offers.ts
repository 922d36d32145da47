import type { z } from 'zod';
import type { OfferCollectionResponse } from '../../../engine/model/osdm/index.ts';
import type { OffersTried, ReferenceData, TripList } from '../../http/openapi/studio-schemas.ts';
import { api, type Problem } from './api.ts';
import { h, setView, show } from './dom.ts';
import { mode } from './mode.ts';
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
    const answer = await api<OffersTried>('POST', '/offers', body);
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

/** The offers (or the Problem) beside the rule trace that decided them. */
function answered(data: OffersTried): HTMLElement {
  const response = data.response as OffersAnswer;
  const offers = response.offers ?? [];
  return h(
    'div',
    { class: 'columns' },
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
                h('th', {}, 'Passenger types'),
                h('th', {}, 'Admission prices'),
                h('th', {}, 'Minimal price'),
              ),
            ),
            h(
              'tbody',
              {},
              offers.map((o) =>
                h(
                  'tr',
                  {},
                  h(
                    'td',
                    {},
                    h('code', {}, o.offerId),
                    mode.sandbox ? [h('br'), h('a', { href: `#/seats?type=OFFER&id=${encodeURIComponent(o.offerId)}` }, 'seat map')] : '',
                  ),
                  h('td', {}, o.products?.[0]?.summary ?? ''),
                  h(
                    'td',
                    {},
                    (o.admissionOfferParts ?? [])
                      .flatMap((p) => p.appliedPassengerTypes ?? [])
                      .map((t) => `${t.passengerRef}: ${t.type} (${t.description})`)
                      .join(', '),
                  ),
                  h('td', { class: 'num admission-price' }, (o.admissionOfferParts ?? []).map((p) => money(p.price)).join(', ')),
                  h('td', { class: 'num minimal-price' }, money(o.offerSummary?.minimalPrice)),
                ),
              ),
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
