import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Requests in flight, counted from their start until their answer ends. The Fastify hook below
 * and the validation fast path (validation-fast-path.ts) count into the same figure.
 */
export type LoadShedding = {
  /** Whether a new request must be refused now (the app is closing, or `max` are in flight). */
  refusing(): boolean;
  /** Counts a request in flight until `res` closes; answers a release to call if it is handed on before that. */
  admit(res: ServerResponse): () => void;
};

/** Under overload, answer 503 at once rather than queueing without bound. */
export function registerLoadShedding(app: FastifyInstance, max: number): LoadShedding {
  let inFlight = 0;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const admit = (res: ServerResponse) => {
    inFlight++;
    let done = false;
    const release = () => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    // A response closes once it has finished, or when its connection ends first.
    res.once('close', release);
    return release;
  };
  app.addHook('onRequest', async (_req, reply) => {
    if (closing) {
      reply.header('retry-after', '5').header('connection', 'close');
      return reply
        .status(503)
        .send({ message: 'The service is restarting. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' });
    }
    if (inFlight >= max) {
      reply.header('retry-after', '1');
      return reply
        .status(503)
        .send({ message: 'The service is busy. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' });
    }
    admit(reply.raw);
  });
  return { refusing: () => closing || inFlight >= max, admit };
}
