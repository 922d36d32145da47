import { styleText } from 'node:util';

/** Colours a CLI text; the identity where colour is off. */
export type Paint = (style: 'bold' | 'dim' | 'green' | 'red' | 'yellow', text: string) => string;

/**
 * Colour on a terminal only, and never when NO_COLOR is set (https://no-color.org); FORCE_COLOR turns it on
 * where there is no terminal (CI logs that render ANSI).
 */
export function wantsColour(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env['NO_COLOR']) return false;
  if (env['FORCE_COLOR'] !== undefined) return env['FORCE_COLOR'] !== '0';
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** What colours a CLI's output on `stream`: styles where wantsColour says so, the identity elsewhere. */
export function painter(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>> = process.env): Paint {
  const on = wantsColour(stream, env);
  // Decided here, for Node 20 and later alike (newer Node would otherwise check process.stdout itself).
  const style = styleText as (format: string, text: string, options?: { validateStream: boolean }) => string;
  return on ? (format, text) => style(format, text, { validateStream: false }) : (_format, text) => text;
}
