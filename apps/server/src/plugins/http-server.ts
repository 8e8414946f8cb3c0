import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A route served before the framework: it answers the request or hands it on to `fastify`. */
export type FastRoute = (req: IncomingMessage, res: ServerResponse, fastify: Listener) => void;

/** Fastify's settings of the node:http server it would make itself (its getServerInstance). */
type ServerSettings = {
  http?: object;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/**
 * Fastify's `serverFactory`: the node:http server Fastify would make, with the same timeouts, whose
 * requests first meet `fastRoute()` when it gives one (validation-fast-path.ts) and Fastify
 * otherwise. Called for every address Fastify listens on.
 */
export function httpServerFactory(fastRoute: () => FastRoute | undefined) {
  return (fastify: Listener, opts: ServerSettings): Server => {
    const server = createServer(opts.http ?? {}, (req, res) => {
      const route = fastRoute();
      if (route) route(req, res, fastify);
      else fastify(req, res);
    });
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket !== undefined && opts.maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}
