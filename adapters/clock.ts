import { durationMs } from '../engine/rules/time.ts';

/**
 * The time the engine is given (CONTRACT §8). The system clock in production; in sandbox mode the
 * system clock plus an offset that /sandbox/clock moves; in-process scenario runs a virtual clock that
 * moves only by clock steps.
 */
export interface Clock {
  now(): Date;
  /** Sandbox and virtual clocks only: jump to an instant or advance by an ISO 8601 duration. */
  set?(instant: Date): void;
  advance?(iso: string): void;
  /** Sandbox clock only: stop (true) or resume (false) its ticking at the current instant. */
  freeze?(frozen: boolean): void;
}

export const systemClock: Clock = { now: () => new Date() };

export function sandboxClock(): Clock {
  let offset = 0;
  let frozenAt: number | undefined;
  const now = () => frozenAt ?? Date.now() + offset;
  return {
    now: () => new Date(now()),
    set(instant) {
      offset = instant.getTime() - Date.now();
      if (frozenAt !== undefined) frozenAt = instant.getTime();
    },
    advance(iso) {
      offset += durationMs(iso);
      if (frozenAt !== undefined) frozenAt += durationMs(iso);
    },
    freeze(frozen) {
      const t = now();
      offset = t - Date.now();
      frozenAt = frozen ? t : undefined;
    },
  };
}

export function virtualClock(start: Date): Clock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set(instant) {
      t = instant.getTime();
    },
    advance(iso) {
      t += durationMs(iso);
    },
  };
}
