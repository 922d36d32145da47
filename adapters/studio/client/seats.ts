import type { SeatMaps } from '../../http/openapi/studio-schemas.ts';
import { api } from './api.ts';
import { h, setView, show } from './dom.ts';
import { mode } from './mode.ts';
import { problemBox } from './problems.ts';

type Leg = SeatMaps['legs'][number];

/** One leg: the places this booking holds, and each coach as the SVG `signalbox seatmap` draws. */
const legView = (leg: Leg) =>
  h(
    'section',
    {},
    h('h3', {}, `Leg ${leg.legId}`),
    h(
      'p',
      {},
      leg.held.length
        ? `Places held by this booking: ${leg.held.map((p) => `coach ${p.coach} place ${p.place}`).join(', ')}`
        : 'No place held by this one; grey places are held by other bookings.',
    ),
    leg.coaches.map((c) =>
      h(
        'figure',
        { class: 'coach' },
        // An image, not inline SVG: no script can run inside it.
        h('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(c.svg)}`, alt: `Coach ${c.number} of leg ${leg.legId}` }),
        h('figcaption', {}, `Coach ${c.number}`),
      ),
    ),
  );

/** The place map of an offer or a booking on a sandbox, coach by coach. */
export function seatsView(params: URLSearchParams): void {
  if (!mode.sandbox) return setView('Seats', h('p', {}, 'Seat maps of stored offers and bookings are shown on a sandbox only.'));
  const out = h('div', { id: 'seats-result', 'aria-live': 'polite' });
  const contextType = h(
    'select',
    { name: 'contextType' },
    h('option', { value: 'BOOKING', selected: params.get('type') !== 'OFFER' }, 'booking'),
    h('option', { value: 'OFFER', selected: params.get('type') === 'OFFER' }, 'offer'),
  );
  const contextId = h('input', { name: 'contextId', required: true, value: params.get('id') ?? '', size: 40 });
  const draw = async () => {
    const q = new URLSearchParams({ contextType: contextType.value, contextId: contextId.value.trim() });
    const answer = await api<SeatMaps>('GET', `/seats?${q}`);
    if (!answer.ok) return show(out, problemBox(answer.data));
    const { legs } = answer.data;
    show(out, legs.length ? legs.map(legView) : h('p', {}, 'It has no reservations, so no seat map.'));
  };
  const form = h(
    'form',
    {
      'aria-label': 'Seat map of',
      onsubmit: (e) => {
        e.preventDefault();
        void draw();
      },
    },
    h('label', {}, 'Of ', contextType),
    ' ',
    h('label', {}, 'id ', contextId),
    ' ',
    h('button', { type: 'submit' }, 'Draw the seat map'),
  );
  setView(
    'Seats',
    h(
      'p',
      {},
      'The place map of an offer or a booking on this sandbox, coach by coach: free, held by others (allocated), and this booking\u2019s own (selected).',
    ),
    form,
    out,
  );
  if (params.get('id')) form.requestSubmit();
}
