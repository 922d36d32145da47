import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadRules } from '../../engine/index.ts';
import { seatMapSvg, type PlaceMapBody } from '../analysis/seatmap-svg.ts';

/**
 * `signalbox seatmap [FILE] [--coach N] [--out FILE] [--rules DIR]`: draws one coach of a place map (the body
 * of GET /v3/availabilities/place-map, from FILE or stdin) as SVG, so an analyst can look instead of read.
 * Without --coach: the coach of the first pre-selected place, else the first coach with a free place.
 */
export async function seatmap(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { coach: { type: 'string' }, out: { type: 'string' }, rules: { type: 'string' } },
  });
  const body = JSON.parse(readFileSync(positionals[0] ?? 0, 'utf8')) as PlaceMapBody;
  if (!body?.vehicleAvailability?.vehicle?.coaches) {
    process.stderr.write('seatmap: expected the body of GET /v3/availabilities/place-map ({"vehicleAvailability": …})\n');
    return 2;
  }
  const va = body.vehicleAvailability;
  const { coaches } = va.vehicle;
  const coach =
    values.coach ??
    va.preSelections?.[0]?.coach ??
    coaches.find((c) => (c.compartments ?? []).some((k) => k.places.some((p) => p.status === 'FREE')))?.number ??
    coaches[0]?.number ??
    '';
  try {
    const svg = seatMapSvg(loadRules(values.rules), body, coach);
    if (values.out) writeFileSync(values.out, svg);
    else process.stdout.write(svg);
    return 0;
  } catch (e) {
    process.stderr.write(`seatmap: ${(e as Error).message}\n`);
    return 1;
  }
}
