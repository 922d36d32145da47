import type { HttpResult, Session, Target } from './targets.ts';

/**
 * A target that counts the requests its sessions have sent and not yet had answered. The runner keeps tokens per
 * target, so each target has one such wrapper for good, and a run's token is still good in the next run.
 */
interface Watched {
  target: Target;
  waiting: number;
  /** Each run's check, called when the event loop next has nothing else to do after a request was sent. */
  idle: Set<() => void>;
}
const watched = new WeakMap<Target, Watched>();

function watch(target: Target): Watched {
  const known = watched.get(target);
  if (known) return known;
  let armed = false;
  const w: Watched = {
    waiting: 0,
    idle: new Set(),
    target: {
      ...target,
      async open(...args) {
        const session = await target.open(...args);
        const sent: Session = {
          ...session,
          send(x) {
            w.waiting++;
            let answer: Promise<HttpResult>;
            try {
              answer = session.send(x);
            } catch (e) {
              w.waiting--;
              throw e;
            }
            if (!armed && w.idle.size > 0) {
              armed = true;
              setImmediate(() => {
                armed = false;
                for (const check of w.idle) check();
              });
            }
            return answer.finally(() => w.waiting--);
          },
        };
        if (session.traces) sent.traces = session.traces.bind(session);
        return sent;
      },
    },
  };
  watched.set(target, w);
  return w;
}

/**
 * Runs `lane` on this thread, and starts it again each time every lane started waits inside a request for the
 * event loop, up to `most` lanes; resolves when every lane has returned. A lane takes scenarios one after another
 * until none is left.
 *
 * In-process, a request waits for the event loop only for a timer or a thread of Node's (a sandbox fault's delay,
 * a token's scrypt): the rest of a scenario runs without a turn of the loop. So when the loop has a moment with a
 * request still unanswered, the processor would idle, and another scenario may use it. Otherwise the scenarios of a
 * thread never share the processor, and each one's time is its own, but for at most one other scenario's run past
 * the end of its wait.
 */
export function fillWaits(target: Target, most: number, lane: (target: Target) => Promise<void>): Promise<void> {
  const w = watch(target);
  let lanes = 0;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (w.waiting > 0 && w.waiting >= lanes && lanes < most) start();
    };
    const start = () => {
      lanes++;
      lane(w.target).then(() => {
        if (--lanes > 0) return;
        w.idle.delete(check);
        resolve();
      }, reject);
    };
    w.idle.add(check);
    start();
  });
}
