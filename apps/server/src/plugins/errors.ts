import type { FastifyError, FastifyInstance } from 'fastify';
import type { PageSender } from './web-app';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError } from '@portal/contract';
import { AppError } from '../lib/errors';

type FastifyErr = FastifyError & { validation?: unknown; validationContext?: string };

const PART: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** One error shape for every failure; a 5xx never shows its internals. */
export function registerErrorHandling(app: FastifyInstance, opts: { sendPage?: PageSender } = {}) {
  app.setErrorHandler((err: FastifyErr, req, reply) => {
    let status = 500;
    let body: ApiError = { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' };

    if (err instanceof AppError) {
      status = err.status;
      body = { message: err.message, code: err.code, ...(err.extra.issues ? { issues: err.extra.issues } : {}) };
      if (err.extra.retryAfterSeconds) reply.header('retry-after', String(err.extra.retryAfterSeconds));
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      const where = PART[err.validationContext ?? ''] ?? 'request';
      const issues = err.validation.map((v) => {
        const p = v.instancePath.split('/').filter(Boolean);
        const keys = (v.params as { keys?: string[] }).keys ?? [];
        const message =
          v.keyword === 'unrecognized_keys'
            ? `Unknown field${keys.length > 1 ? 's' : ''} in the ${where}: ${keys.join(', ')}`
            : (v.message ?? 'This value is not valid');
        return { path: p, message };
      });
      status = 400;
      body = { message: issues[0]?.message ?? 'The request is not valid', code: 'VALIDATION_FAILED', issues };
    } else if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      body = { message: 'Send the request body as JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' };
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      body = { message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' };
    } else if (
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      err instanceof SyntaxError ||
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    ) {
      status = 400;
      body = { message: 'The request body is not valid JSON', code: 'BAD_REQUEST' };
    } else if (err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
      status = 400;
      body = { message: 'The request body does not match its Content-Length', code: 'BAD_REQUEST' };
    } else if (hasDatabaseCode(err, ['22021', '22P05'])) {
      // A backstop: text the database cannot store (the contract refuses it first where it can).
      status = 400;
      body = { message: 'The request contains characters that cannot be stored', code: 'BAD_REQUEST' };
    } else if (isDatabaseUnavailable(err)) {
      status = 503;
      body = { message: 'The service is temporarily unavailable. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' };
      reply.header('retry-after', '5');
      req.log.warn({ err }, 'database unavailable');
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      body = { message: err.message || 'The request is not valid', code: 'BAD_REQUEST' };
    }
    if (status >= 500 && body.code === 'INTERNAL') req.log.error({ err }, 'request failed');
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    // Every page of the single-page app answers its index.html (plugins/web-app.ts).
    const page = opts.sendPage?.(req, reply);
    if (page) return page;
    return reply.status(404).send({ message: `No such endpoint: ${req.method} ${pathname}`, code: 'NOT_FOUND' });
  });
}

function hasDatabaseCode(err: unknown, codes: string[]): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code && codes.includes(e.code)) return true;
  }
  return false;
}

const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '53300',
]);
function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: string; message?: string; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (e.code && UNAVAILABLE.has(e.code)) return true;
    if (
      e.message &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}
