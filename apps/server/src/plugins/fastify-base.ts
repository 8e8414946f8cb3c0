import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { applyApiCaching, applySecurityHeaders } from './security';

export type FastifyBaseOptions = {
  config: Config;
  /** A logger of the caller's (tests); default: pino at LOG_LEVEL, written to `logStream` or stdout. */
  logger?: FastifyServerOptions['logger'] | undefined;
  logStream?: { write(line: string): unknown } | undefined;
  /** The request URL as the log may show it (secrets in paths and query strings replaced). */
  redactUrl: (url: string) => string;
  /** The security headers of this app's answers, router errors included. */
  headers: Parameters<typeof applySecurityHeaders>[1];
  /** The body limit of every route that does not set its own. */
  bodyLimit: number;
  /** Anything else of Fastify's (the portal's server factory and its own 503 while closing). */
  extra?: FastifyServerOptions;
};

/**
 * A Fastify instance as both of the server's apps (the portal and the vendor console) are made: the
 * redacting logger, the trusted proxies, small bodies, ids up to the contract's length, router errors
 * in the portal's error shape with its security headers, the request timeouts, the contract's zod
 * schemas for validation and answers, and JSON only (a text body is refused with 415, so no
 * CORS-simple request can change anything).
 */
export function createFastify(o: FastifyBaseOptions): FastifyInstance {
  const { config, headers } = o;
  const app = Fastify({
    logger: o.logger ?? {
      level: config.logLevel,
      ...(o.logStream && { stream: o.logStream }),
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: {
        // Sign-in link ids and download signatures are secrets: keep them out of the logs.
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: o.redactUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: config.trustProxy,
    // Small bodies everywhere; a route that needs more (the payment webhook) raises its own limit.
    bodyLimit: o.bodyLimit,
    // Ids of the contract are up to 255 characters: let them reach validation (and its 400).
    routerOptions: { maxParamLength: 512 },
    // Router errors (a too-long or badly encoded path) answer in the portal's error shape too.
    frameworkErrors: (err, req, reply) => {
      applySecurityHeaders(reply as FastifyReply, headers);
      applyApiCaching(req, reply as FastifyReply);
      void (reply as FastifyReply)
        .status(err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400)
        .send({ message: 'This address is not valid', code: 'BAD_REQUEST' });
    },
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs * 2,
    forceCloseConnections: 'idle',
    ...o.extra,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.removeContentTypeParser(['text/plain']);
  return app;
}
