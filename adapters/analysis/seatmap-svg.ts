import type { RuleSet } from '../../engine/index.ts';
import { escapeHtml } from '../shared/html.ts';

/** What GET /v3/availabilities/place-map answers (spec §2.11), as far as the drawing needs it. */
export interface PlaceMapBody {
  vehicleAvailability: {
    vehicle: {
      coaches: Array<{ number: string; layoutId: string; compartments?: Array<{ number?: string; places: Array<{ number: string; status: string }> }> }>;
    };
    preSelections?: Array<{ coach: string; place: string; reservationId?: string }>;
  };
}

const FILL: Record<string, string> = { FREE: '#cdeccd', ALLOCATED: '#9e9e9e', RESTRICTED: '#eeeeee', SELECTED: '#7fb2f0' };
/** Short marks for the properties an analyst looks for first; others are in the place's tooltip. */
const MARKS: Record<string, string> = {
  WINDOW: 'W',
  AISLE: 'A',
  TABLE: 'T',
  WHEELCHAIR_AND_SEAT: '♿',
  WHEELCHAIR_NO_SEAT: '♿',
  LOWER_BED: 'L',
  MIDDLE_BED: 'M',
  UPPER_BED: 'U',
  WITH_ANIMALS: '🐾',
};

/**
 * One coach of a place map as SVG: each place its layout icon's size (rules/coach-layouts.yaml `icons`: a seat is
 * 40 px wide) at its layout centre, coloured free, allocated, restricted or selected (preSelections), with its
 * number and property marks.
 */
export function seatMapSvg(rules: RuleSet, body: PlaceMapBody, coachNumber: string): string {
  const { coaches } = body.vehicleAvailability.vehicle;
  const coach = coaches.find((c) => c.number === coachNumber);
  if (!coach) throw new Error(`no coach ${coachNumber} in the place map; coaches: ${coaches.map((c) => c.number).join(', ')}`);
  const layout = rules.coachLayouts.layouts[coach.layoutId];
  if (!layout) throw new Error(`unknown coach layout ${coach.layoutId}`);
  const { width: w, height: h } = rules.coachLayouts.icons[layout.placeIcon]!;
  const status = new Map((coach.compartments ?? []).flatMap((c) => c.places.map((p) => [p.number, p.status] as const)));
  const selected = new Set((body.vehicleAvailability.preSelections ?? []).filter((p) => p.coach === coachNumber).map((p) => p.place));
  const head = 24;
  const places = layout.places.map((p) => {
    const s = selected.has(p.number) ? 'SELECTED' : (status.get(p.number) ?? 'RESTRICTED');
    const x = p.coords.x - w / 2;
    const y = p.coords.y - h / 2 + head;
    const marks = p.placeProperties
      .map((q) => MARKS[q])
      .filter(Boolean)
      .join('');
    return (
      `  <g><title>${escapeHtml(`${p.number} ${s} ${p.placeProperties.join(' ')}${p.compartment ? ` compartment ${p.compartment}` : ''}`)}</title>` +
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="${FILL[s]}" stroke="#555"/>` +
      `<text x="${p.coords.x}" y="${y + 17}" font-size="13" text-anchor="middle">${escapeHtml(p.number)}</text>` +
      `<text x="${p.coords.x}" y="${y + 33}" font-size="10" text-anchor="middle">${escapeHtml(marks)}</text></g>`
    );
  });
  const width = layout.gridSize.x;
  const height = layout.gridSize.y + head + 20;
  const legend = Object.entries(FILL)
    .map(
      ([k, c], i) =>
        `<rect x="${8 + i * 90}" y="${height - 16}" width="12" height="12" fill="${c}" stroke="#555"/><text x="${24 + i * 90}" y="${height - 6}" font-size="11">${k.toLowerCase()}</text>`,
    )
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `  <text x="8" y="16" font-size="14">Coach ${escapeHtml(coachNumber)} (${escapeHtml(coach.layoutId)}) →</text>`,
    `  <rect x="0.5" y="${head - 4}" width="${width - 1}" height="${layout.gridSize.y + 4}" fill="none" stroke="#333" rx="10"/>`,
    ...places,
    `  ${legend}`,
    '</svg>',
    '',
  ].join('\n');
}
