import type { ReferenceData } from '../../http/openapi/studio-schemas.ts';
import { api } from './api.ts';
import { h, setView, type Child } from './dom.ts';
import { problemBox } from './problems.ts';
import { valueView } from './values.ts';

/** What the view reads of the rule files' reference data (rules/products.yaml, cards.yaml, sales-applications.yaml, stations). */
interface Reference {
  products: { productCategories: Record<string, { name: unknown; night?: boolean; reservation: string; products: string[] }> };
  cards: { reductionCards: Record<string, { effect: string; name: unknown }> };
  salesApplications: Array<{
    code: string;
    currency: string;
    stationCodes: string;
    osdmVersion?: string;
    permissions: { onHold?: boolean; release?: boolean; placeMap?: boolean };
  }>;
  stations: Array<{ name: string; x_swe?: string; uic?: string; country: string; airport?: boolean }>;
}

const section = (title: string, head: string[], rows: Child[][]) =>
  h(
    'section',
    {},
    h('h3', {}, title),
    h(
      'table',
      { class: 'grid small' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((x) => h('th', {}, x)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c) => h('td', {}, c)),
          ),
        ),
      ),
    ),
  );

/** Product categories, reduction cards, sales applications and stations, as the rule files state them. */
export async function referenceView(): Promise<void> {
  const answer = await api<ReferenceData>('GET', '/reference');
  if (!answer.ok) return setView('Reference data', problemBox(answer.data));
  const data = answer.data as unknown as Reference;
  setView(
    'Reference data',
    section(
      'Product categories',
      ['Code', 'Name', 'Night', 'Reservation', 'Products'],
      Object.entries(data.products.productCategories).map(([code, c]) => [
        code,
        valueView(c.name),
        c.night ? 'yes' : 'no',
        c.reservation,
        c.products.join(', '),
      ]),
    ),
    section(
      'Reduction cards',
      ['Code', 'Effect', 'Name'],
      Object.entries(data.cards.reductionCards).map(([code, c]) => [code, c.effect, valueView(c.name)]),
    ),
    section(
      'Sales applications',
      ['Code', 'Currency', 'Station codes', 'OSDM version', 'On hold', 'Release', 'Place map'],
      data.salesApplications.map((s) => [
        s.code,
        s.currency,
        s.stationCodes,
        s.osdmVersion ?? '',
        s.permissions.onHold ? 'yes' : 'no',
        s.permissions.release ? 'yes' : 'no',
        s.permissions.placeMap ? 'yes' : 'no',
      ]),
    ),
    section(
      'Stations',
      ['Name', 'x_swe', 'UIC', 'Country', 'Airport'],
      data.stations.map((s) => [s.name, s.x_swe ?? '', s.uic ?? '', s.country, s.airport ? 'yes' : '']),
    ),
  );
}
