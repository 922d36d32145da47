import { forgetToken, keepToken } from './api.ts';

/**
 * Signing in and out, and the views that show something only a signed-in analyst sees: such a view registers how
 * to draw itself again, and is drawn again when the token comes or goes, while it is still the one shown.
 */
const CHANGED = 'signalbox-session-changed';

let shown: { hash: string; draw: () => unknown } | undefined;

/** The view being drawn depends on the token: draw it again (with `draw`) when the analyst signs in or out. */
export function redrawOnSessionChange(draw: () => unknown): void {
  shown = { hash: location.hash, draw };
}

window.addEventListener(CHANGED, () => {
  if (shown && shown.hash === location.hash) void Promise.resolve(shown.draw());
});

export function signedIn(token: string): void {
  keepToken(token);
  window.dispatchEvent(new Event(CHANGED));
}

export function signedOut(): void {
  forgetToken();
  window.dispatchEvent(new Event(CHANGED));
}
