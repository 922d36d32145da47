import { durationMs } from '../../engine/rules/index.ts';

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
  return followingClock(systemClock);
}

/**
 * A clock that keeps an offset (and, frozen, an instant) from another: the sandbox's from the system clock, a
 * client's own from the server's.
 */
function followingClock(base: Clock): Clock {
  let offset = 0;
  let frozenAt: number | undefined;
  const now = () => frozenAt ?? base.now().getTime() + offset;
  return {
    now: () => new Date(now()),
    set(instant) {
      offset = instant.getTime() - base.now().getTime();
      if (frozenAt !== undefined) frozenAt = instant.getTime();
    },
    advance(iso) {
      offset += durationMs(iso);
      if (frozenAt !== undefined) frozenAt += durationMs(iso);
    },
    freeze(frozen) {
      const t = now();
      offset = t - base.now().getTime();
      frozenAt = frozen ? t : undefined;
    },
  };
}

/**
 * The clocks of a sandbox many clients share (our addition to CONTRACT §8): a client follows the server's clock
 * until it moves its own with /sandbox/clock, so one team moving time changes nothing for another. A server
 * without a sandbox has one clock for everyone.
 */
export interface Clocks {
  /** The server's clock, which a client without a clock of its own follows. */
  readonly server: Clock;
  /** The clock a client's requests are decided at. */
  of(client: string): Clock;
  /** The client's own clock, made from the server's when first asked for; undefined without a sandbox. */
  own(client: string): Clock | undefined;
  /** The client follows the server's clock again (its sandbox reset). */
  forget(client: string): void;
  /** Every client follows the server's clock again. */
  forgetAll(): void;
}

export function clocksOf(server: Clock, sandbox: boolean): Clocks {
  const owned = new Map<string, Clock>();
  return {
    server,
    of: (client) => owned.get(client) ?? server,
    own(client) {
      if (!sandbox) return undefined;
      let clock = owned.get(client);
      if (!clock) owned.set(client, (clock = followingClock(server)));
      return clock;
    },
    forget: (client) => void owned.delete(client),
    forgetAll: () => owned.clear(),
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
