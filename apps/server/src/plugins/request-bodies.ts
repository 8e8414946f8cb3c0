import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/errors';

/** Methods whose bodies Fastify parses (GET and HEAD bodies are never read). */
const PARSED = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route's methods, as a list. */
const methodsOf = (route: { method: string | string[] }) => (Array.isArray(route.method) ? route.method : [route.method]);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body itself (the payment provider's webhook keeps the raw bytes). */
    rawBody?: boolean;
  }
}

/**
 * Bodies only where a route takes one. A route that declares no body schema (and does not read
 * its raw body) refuses an announced body in `onRequest`, before anything is read or parsed: a
 * deeply nested JSON document costs CPU to parse even when the route would ignore it. The answers
 * are those Fastify would give for the same body (415 for a non-JSON type, 413 over the limit),
 * and 400 for a JSON body the route does not take.
 */
export function registerBodyRules(app: FastifyInstance, opts: { defaultLimit: number }) {
  app.addHook('onRoute', (route) => {
    if (!methodsOf(route).some((m) => PARSED.has(m))) return;
    if (route.schema?.body !== undefined || route.config?.rawBody === true) return;
    const limit = route.bodyLimit ?? opts.defaultLimit;
    const refuseBody: onRequestAsyncHookHandler = async (req) => {
      if (PARSED.has(req.method)) refuseAnnouncedBody(req, limit);
    };
    route.onRequest = [...asArray(route.onRequest), refuseBody];
  });
}

/**
 * Many HTTP clients send `{}` (or `null`) with every POST: a body this small costs nothing to parse
 * and the route ignores it, as it always did.
 */
const TOLERATED_EMPTY_BODY = 8;

function refuseAnnouncedBody(req: FastifyRequest, limit: number) {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || Number(length) <= TOLERATED_EMPTY_BODY)) return;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json)');
  }
  if (Number(length) > limit) throw new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  throw new AppError('BAD_REQUEST', 'This request takes no body: send it without one');
}

export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
