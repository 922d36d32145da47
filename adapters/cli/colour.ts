import { styleText } from 'node:util';

/** Colours a CLI text; the identity where colour is off. */
export type Paint = (style: 'bold' | 'dim' | 'green' | 'red' | 'yellow', text: string) => string;

/**
 * Colour on a terminal only, and never when NO_COLOR is set (https://no-color.org); FORCE_COLOR turns it on
 * where there is no terminal (CI logs that render ANSI).
 */
export function painter(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Paint {
  const on = !env['NO_COLOR'] && ((env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') || stream.isTTY === true) && env['TERM'] !== 'dumb';
  // Decided here, for Node 20 and later alike (newer Node would otherwise check process.stdout itself).
  const style = styleText as (format: string, text: string, options?: { validateStream: boolean }) => string;
  return on ? (format, text) => style(format, text, { validateStream: false }) : (_format, text) => text;
}
