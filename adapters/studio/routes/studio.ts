import { existsSync } from 'node:fs';
import { defaultRulesDir } from '../../../engine/index.ts';

/**
 * Where a server's studio reads and writes: what `signalbox serve` gives it (docs/studio.md). Reading and trying
 * are open; whatever checks an edit, runs the scenario corpus or changes the rules needs a token with the `analyst`
 * scope (rules/clients.yaml), and saving also needs a server that may change its rules (a sandbox, or `serve --edit`).
 */
export interface StudioOptions {
  /** The server is a sandbox (`serve --sandbox`): the rules may be saved, and seat maps and the journal are there. */
  sandbox: boolean;
  /** The folder the serving rules were loaded from, where a save writes; defaults to the rules/ shipped. */
  rulesDir?: string;
  /** `serve --edit`: the rules may be changed from the studio on a server that is not a sandbox. */
  edit?: boolean;
  /** The scenario corpus the studio runs and previews edits on (default `scenarios`). */
  scenarios?: string[];
  /** The folder of fixture files whose `trips` an offers request may use (default `scenarios/fixtures`). */
  fixtures?: string;
  /** What the server's engines are built with, so a saved edit serves as `--watch` would load it. */
  engineOptions?: { ticketKey?: string };
}

/** The studio's options with their defaults in place. */
export interface Studio {
  sandbox: boolean;
  rulesDir: string;
  /** The rules may be saved here. */
  editable: boolean;
  /** The scenario files and folders that exist. */
  scenarios(): string[];
  fixtures: string;
  engineOptions: { ticketKey?: string };
}

export function studioOf(options: StudioOptions): Studio {
  // A server started elsewhere than a checkout (the npm package) has no scenarios: then there are none to run.
  const corpus = options.scenarios ?? ['scenarios'];
  return {
    sandbox: options.sandbox,
    rulesDir: options.rulesDir ?? defaultRulesDir(),
    editable: options.sandbox || options.edit === true,
    scenarios: () => corpus.filter((p) => existsSync(p)),
    fixtures: options.fixtures ?? 'scenarios/fixtures',
    engineOptions: options.engineOptions ?? {},
  };
}

/** What every entry of the studio shares in the route table. */
export const studioEntry = { section: 'docs/studio.md (the studio)', tag: 'Studio' as const };

export const decisionParameter = 'The decision, e.g. `passengerType` (GET /studio/api/decisions lists them).';
