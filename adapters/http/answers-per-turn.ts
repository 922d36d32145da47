import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Answers finished in one turn of the event loop leave together at its end (the loop's check phase), one after
 * another, instead of each as soon as it is done.
 *
 * Why: an answer written to a connection whose client sleeps makes the kernel wake that client, and on a virtual
 * machine the wake-up costs the server more than writing the answer does. Written back to back, the answers of a
 * turn wake a client that serves many connections once: under load, a large share of an offers request's and a
 * sale's CPU (docs/performance.md, "Answers per turn").
 *
 * What it costs: an answer waits for the turn's other requests, which hold the event loop anyway. A lone request is
 * answered in the turn it came in. Only answers to a real connection are held: in-process requests (the scenario
 * runner's, `app.inject`'s) have no socket and are answered at once, as the runner expects.
 */
export function answersPerTurn(app: FastifyInstance): void {
  let held: Array<() => void> = [];
  const release = () => {
    const answers = held;
    held = [];
    for (const send of answers) {
      try {
        send();
      } catch (error) {
        // One answer that cannot go out must not keep the others back.
        app.log.error({ err: error }, 'an answer held to the end of its turn could not be sent');
      }
    }
  };
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!(reply.raw.socket instanceof Socket)) {
      done(null, payload);
      return;
    }
    if (held.length === 0) setImmediate(release);
    held.push(() => done(null, payload));
  });
}
