import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { optionalModule } from './lib/optional-module';
import { serverRoot } from './lib/server-root';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './lib/rate-limiter';
import { authRoutes } from './modules/auth/auth.routes';
import { usersRoutes } from './modules/users/users.routes';
import { googleRoutes } from './modules/auth/google.routes';
import { licensesRoutes, quietLevel } from './modules/licenses/licenses.routes';
import { createValidationFastPath, replayBody, VALIDATE_ROUTE } from './modules/licenses/validation-fast-path';
import { billingRoutes } from './modules/billing/billing.routes';
import { missingSellerDetails } from './modules/billing/invoice-terms';
import { productsRoutes } from './modules/products/products.routes';
import { registerErrorHandling } from './plugins/errors';
import { createFastify } from './plugins/fastify-base';
import { httpServerFactory, type FastRoute } from './plugins/http-server';
import { registerLoadShedding, type LoadShedding } from './plugins/load-shedding';
import { createMetrics, registerObservability, type Metrics } from './plugins/observability';
import { registerOpenApi } from './plugins/openapi';
import { createRateLimit, linkAddressLimit, type LinkAddressLimit, type RateLimit } from './plugins/rate-limit';
import { applySecurityHeaders, contentSecurityPolicy, registerSecurity } from './plugins/security';
import { asArray, registerBodyRules } from './plugins/request-bodies';
import { registerSession, sessionCookie } from './plugins/session';
import { registerTokenAuth } from './plugins/token-auth';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes';
import { readFirstAnswers } from './plugins/first-answers';
import { registerJsonCompression, registerWebApp, spaPageSender } from './plugins/web-app';
import { fileMailer, smtpMailer, type Mailer } from './providers/mail/mailer';
import { createServices, type Services } from './services';
import type { WebhookTransport } from './modules/webhooks/webhook-transport';

/** The URL without its query string, and with a sign-in link's secret replaced. */
export function redactUrl(url: string): string {
  const [pathname, query] = url.split('?');
  return (
    (pathname ?? '').replace(/^\/api\/auth\/(link|recipient)\/[^/]+/, '/api/auth/$1/[redacted]') + (query ? '?[redacted]' : '')
  );
}

/** The body limit of every route that does not set its own (16 KiB). */
export const DEFAULT_BODY_LIMIT = 16 * 1024;

export const WEB_DIST = path.resolve(serverRoot(), '../web/dist');

export type AppOverrides = {
  database?: Database;
  mailer?: Mailer;
  clock?: Clock;
  limiter?: RateLimiter;
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (server.ts: a LogOutput that never blocks); default: stdout. */
  logStream?: { write(line: string): unknown };
  /** Serve the built web app (default: when its index.html exists). */
  serveWeb?: boolean;
  /** Folder of the built web app (default: apps/web/dist). */
  webDist?: string;
  /** Serve well-formed validations from memory before Fastify (default: on; its test compares both). */
  validationFastPath?: boolean;
  /** How outbound webhooks reach their endpoints (tests inject its resolver and connector). */
  webhookTransport?: WebhookTransport;
};

/** Builds the whole application in a fixed plugin order. The server and every API test call this. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const headers = { hsts: config.secureCookies, csp: contentSecurityPolicy({ stripe: config.stripe !== undefined }) };
  // Set once the services exist: until then (and when off) every request goes to Fastify.
  const fast: { route?: FastRoute | undefined } = {};
  const app = createFastify({
    config,
    logger: overrides.logger,
    logStream: overrides.logStream,
    redactUrl,
    headers,
    bodyLimit: DEFAULT_BODY_LIMIT,
    extra: {
      serverFactory: httpServerFactory(() => fast.route),
      // Our own 503 while closing (registerLoadShedding), in the portal's error shape.
      return503OnClosing: false,
    },
  });

  const clock = overrides.clock ?? systemClock;
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeoutMs: config.databaseTimeoutMs,
      log: app.log,
    }));
  const mailer =
    overrides.mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : fileMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, app.log));
  const limiter = overrides.limiter ?? (config.redisUrl ? redisLimiter(config.redisUrl, app.log) : memoryRateLimiter());
  const services = createServices({
    config,
    db: database.db,
    clock,
    log: app.log,
    mailer,
    notifications: database.notifications,
    databaseInThread: database.kind === 'pglite',
    webhookTransport: overrides.webhookTransport,
  });

  const missingSeller = missingSellerDetails(config.seller);
  if (missingSeller.length > 0) {
    // A fresh install runs without them; its invoices then lack what a business needs to book them.
    app.log.warn(
      { missing: missingSeller },
      `Invoices lack the seller's details: set ${missingSeller.join(', ')} (docs/operations.md, "Invoices and tax")`,
    );
  }

  const webDist = overrides.webDist ?? WEB_DIST;
  const webBuilt = overrides.serveWeb ?? existsSync(path.join(webDist, 'index.html'));
  // The signed-in pages' copy preloads the shell's code (docs/decisions/125) and carries the
  // answers of the page's first reads (docs/decisions/139).
  const firstAnswers = (req: FastifyRequest) => readFirstAnswers(app, req);
  registerErrorHandling(
    app,
    webBuilt ? { sendPage: spaPageSender(webDist, [{ prefix: '/app', file: 'app.html' }], { firstAnswers }) } : {},
  );
  registerSecurity(app, { publicUrl: config.publicUrl, ...headers });
  registerJsonCompression(app);
  const shedding = registerLoadShedding(app, config.maxConcurrentRequests);
  const metrics = createMetrics();
  registerObservability(app, { database, outbox: services.outbox, metrics, metricsToken: config.metricsToken });
  await app.register(fastifyCookie);
  const cookie = sessionCookie({ secure: config.secureCookies, maxAgeSeconds: config.session.absoluteDays * 86_400 });
  registerSession(app, { sessions: services.sessions, cookie });
  registerBodyRules(app, { defaultLimit: DEFAULT_BODY_LIMIT });

  await registerOpenApi(app, config);

  // Each module's routes get the services and settings they use, and nothing else.
  const rateLimit = createRateLimit(limiter);
  registerTokenAuth(app, { tokens: services.tokens, rateLimit, perMinute: config.rateLimits.apiTokenPerMinute });
  const limitLinkAddress = linkAddressLimit(rateLimit, config.rateLimits.linkPerAddressPerMinute);
  const { auth, sessions, users, account, licenses, billing, products, tokens } = services;
  // A validation the fast path read and handed on gets its body back (validation-fast-path.ts).
  app.addHook('onRoute', (route) => {
    if (route.url === VALIDATE_ROUTE && route.method === 'POST') route.preParsing = [...asArray(route.preParsing), replayBody];
  });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { config, auth, sessions, cookie, rateLimit, limitLinkAddress });
      await api.register(googleRoutes, { config, auth, clock, cookie, rateLimit, limiter });
      await api.register(usersRoutes, { config, users, account, cookie });
      await api.register(apiTokensRoutes, { tokens });
      await api.register(licensesRoutes, { config, licenses, rateLimit });
      await api.register(billingRoutes, { config, billing, rateLimit });
      await api.register(productsRoutes, { products });
    },
    { prefix: '/api' },
  );

  if (webBuilt) await registerWebApp(app, webDist);

  const fastPath =
    overrides.validationFastPath !== false && validationLogsQuiet(config.logLevel)
      ? validationFastPath({ config, services, rateLimit, shedding, metrics, headers, log: app.log })
      : undefined;
  fast.route = fastPath?.serve;

  if (config.workers) services.startWorkers();
  app.addHook('onReady', async () => {
    void services.outbox.kick();
  });
  app.addHook('onClose', async () => {
    await services.stopWorkers();
    await limiter.close();
    await mailer.close();
    if (!overrides.database) await database.close();
  });
  app.decorate('ctx', { services, mailer, limitLinkAddress, validationFastPath: () => fastPath?.stats() });
  return app;
}

/** What tests reach past HTTP: the services (to run a job or seed through them) and the mailer. */
export type AppInternals = {
  services: Services;
  mailer: Mailer;
  /** The per-address limit on sign-in links, on this app's limiter (Redis when configured): the console uses it too. */
  limitLinkAddress: LinkAddressLimit;
  /** How many validations the fast path answered and handed on (undefined when it is off). */
  validationFastPath: () => { answered: number; handedOn: number } | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppInternals;
  }
}

/** Redis-backed rate limits; a Redis outage is logged (once a minute) and falls back per instance. */
function redisLimiter(url: string, log: FastifyInstance['log']): RateLimiter {
  const { Redis: RedisClient } = optionalModule<{ Redis: typeof Redis }>('ioredis');
  const redis = new RedisClient(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
  let lastWarning = 0;
  const warn = (err: unknown) => {
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    log.warn({ err }, 'Redis is unreachable: rate limits are counted per instance until it is back');
  };
  redis.on('error', warn);
  return redisRateLimiter(redis, warn);
}

/**
 * The validate route logs no line per request at this LOG_LEVEL (its route level is warn or
 * stricter), which the fast path does not write either; at debug every call goes to Fastify.
 */
function validationLogsQuiet(level: string): boolean {
  return ['warn', 'error', 'fatal', 'silent'].includes(quietLevel(level));
}

/** The fast path of POST /api/licenses/{key}/validate with the route's own services and settings. */
function validationFastPath(deps: {
  config: Config;
  services: Services;
  rateLimit: RateLimit;
  shedding: LoadShedding;
  metrics: Metrics;
  headers: { hsts: boolean; csp: string };
  log: FastifyInstance['log'];
}) {
  const { config, services, metrics } = deps;
  // The security hook's own headers, in its order: recorded from the function that sets them.
  const securityHeaders: Array<[string, string]> = [];
  const recorder = {
    header(name: string, value: string) {
      securityHeaders.push([name, value]);
      return recorder;
    },
  };
  applySecurityHeaders(recorder as unknown as FastifyReply, deps.headers);
  const seriesByStatus = new Map<number, (seconds: number) => void>();
  return createValidationFastPath({
    fromMemory: services.licenses.validate.fromMemory,
    signatureHeader: services.licenses.signatureHeader,
    rateLimit: deps.rateLimit,
    perMinute: config.rateLimits.licensePerMinute,
    shedding: deps.shedding,
    count: (status, seconds) => {
      let count = seriesByStatus.get(status);
      if (!count) {
        const labels = { method: 'POST', route: VALIDATE_ROUTE };
        count = metrics.requestSeries('http_requests_total', { ...labels, status: String(status) }, labels);
        seriesByStatus.set(status, count);
      }
      count(seconds);
    },
    securityHeaders,
    allowedOrigin: new URL(config.publicUrl).origin,
    trustProxy: config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    logError: (err) => deps.log.error({ err }, 'request failed'),
  });
}
