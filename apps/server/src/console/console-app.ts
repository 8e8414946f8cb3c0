import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { persistentSecret, type Config } from '../config';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { memoryRateLimiter } from '../lib/rate-limiter';
import { secretBox } from '../lib/secret-box';
import { serverRoot } from '../lib/server-root';
import { registerErrorHandling } from '../plugins/errors';
import { createFastify } from '../plugins/fastify-base';
import { createRateLimit, type LinkAddressLimit } from '../plugins/rate-limit';
import { registerBodyRules } from '../plugins/request-bodies';
import { contentSecurityPolicy, registerSecurity } from '../plugins/security';
import { registerJsonCompression, registerWebApp, spaPageSender } from '../plugins/web-app';
import type { Services } from '../services';
import { registerConsoleOpenApi } from './console-openapi';
import { createCustomerPage } from './customer-page';
import { documentsRoutes } from './routes/documents.routes';
import { actionsRoutes } from './routes/actions.routes';
import { consoleAuthRoutes } from './routes/console-auth.routes';
import { consoleGoogleRoutes } from './routes/console-google.routes';
import { consoleDocsRoutes } from './routes/console-docs.routes';
import { customersRoutes } from './routes/customers.routes';
import { reportsRoutes } from './routes/reports.routes';
import { createLists } from './lists';
import { createOverview } from './overview';
import { secondFactorRoutes } from './routes/second-factor.routes';
import { staffRoutes } from './routes/staff.routes';
import { staffTokensRoutes } from './routes/staff-tokens.routes';
import { webhooksRoutes } from './routes/webhooks.routes';
import { createStaffActions } from './staff-actions';
import { createTaxReport } from './tax-report';
import { createStaffAuth, STAFF_ABSOLUTE_MS } from './staff-auth';
import { createStaffFactors } from './staff-factors';
import { registerStaffGuard, staffCookie } from './staff-guard';
import { createStaffService } from './staff.service';
import { createStaffTokenService } from './staff-tokens.service';

export const CONSOLE_DIST = path.resolve(serverRoot(), '../console/dist');
const BODY_LIMIT = 16 * 1024;

/** The URL without its query string, and with a console sign-in link's secret replaced. */
export function redactConsoleUrl(url: string): string {
  const [pathname, query] = url.split('?');
  return (pathname ?? '').replace(/^(\/api\/console\/auth\/link\/)[^/]+/, '$1[redacted]') + (query ? '?[redacted]' : '');
}

export type ConsoleDeps = {
  /** The services the customer app built (`app.ctx.services`): the console calls their operations. */
  services: Services;
  /** The portal's per-address limit on sign-in links (`app.ctx.limitLinkAddress`): one counter for both listeners. */
  limitLinkAddress: LinkAddressLimit;
  db: Db;
  clock: Clock;
  logger?: FastifyServerOptions['logger'];
  logStream?: { write(line: string): unknown };
  /** Serve the built console app (default: when its index.html exists). */
  serveWeb?: boolean;
  /** Folder of the built console app (default: apps/console/dist). */
  consoleDist?: string;
};

/**
 * The vendor console: a Fastify instance of its own for the console's listener, with only
 * `/api/console/*` and the console's built files. Same error shape, security headers and
 * cross-site rules as the portal (for the console's own origin), its own cookie and sessions.
 */
export async function buildConsoleApp(config: Config, deps: ConsoleDeps): Promise<FastifyInstance> {
  const headers = { hsts: config.console.secureCookies, csp: contentSecurityPolicy({ stripe: false }) };
  const app = createFastify({
    config,
    logger: deps.logger,
    logStream: deps.logStream,
    redactUrl: redactConsoleUrl,
    headers,
    bodyLimit: BODY_LIMIT,
  });

  const { db, clock, services } = deps;
  const staff = createStaffService({ db, clock });
  const auth = createStaffAuth({
    db,
    clock,
    consoleUrl: config.console.publicUrl,
    outbox: services.outbox,
    staff,
    idleMinutes: config.console.sessionIdleMinutes,
    requireSecondFactor: config.console.requireSecondFactor,
  });
  const factors = createStaffFactors({
    db,
    clock,
    staff,
    // The server's secret, as Google sign-in's state cookie uses it (SESSION_SECRET or DATA_DIR's).
    box: secretBox(config.sessionSecret ?? persistentSecret(config.dataDir, 'session-secret'), 'console-totp'),
    consoleUrl: config.console.publicUrl,
    rpName: `${config.brand.name} console`,
    requireFor: config.console.requireSecondFactor,
  });
  const cookie = staffCookie({ secure: config.console.secureCookies, maxAgeSeconds: STAFF_ABSOLUTE_MS / 1000 });
  const limiter = memoryRateLimiter();
  const rateLimit = createRateLimit(limiter);

  const dist = deps.consoleDist ?? CONSOLE_DIST;
  const webBuilt = deps.serveWeb ?? existsSync(path.join(dist, 'index.html'));
  registerErrorHandling(app, webBuilt ? { sendPage: spaPageSender(dist) } : {});
  registerSecurity(app, { publicUrl: config.console.publicUrl, ...headers });
  registerJsonCompression(app);
  await app.register(fastifyCookie);
  const tokens = createStaffTokenService({ db, clock, staff });
  registerStaffGuard(app, { auth, cookie, tokens, rateLimit, tokenPerMinute: config.rateLimits.apiTokenPerMinute });
  // Before the routes: the document is generated from the routes registered after it.
  await registerConsoleOpenApi(app, config);
  registerBodyRules(app, { defaultLimit: BODY_LIMIT });

  await app.register(consoleAuthRoutes, { config, auth, cookie, rateLimit });
  await app.register(consoleGoogleRoutes, { config, auth, clock, cookie, rateLimit, limiter });
  // Second-factor attempts are counted on the app's clock, so tests can let a minute pass.
  const attempts = memoryRateLimiter(() => clock.now().getTime());
  await app.register(secondFactorRoutes, { factors, rateLimit: createRateLimit(attempts) });
  await app.register(staffRoutes, { staff, factors });
  const { users, billing, audit, sessions, licenses, account } = services;
  const page = createCustomerPage({
    db,
    clock,
    sessionIdleDays: config.session.idleDays,
    graceDays: config.payments.graceDays,
    users,
    billing,
    audit,
    sessions,
    staff,
  });
  await app.register(customersRoutes, { db, page });
  const actions = createStaffActions({
    db,
    clock,
    staff,
    users,
    licenses,
    billing,
    auth: services.auth,
    limitLinkAddress: deps.limitLinkAddress,
    sessions,
    account,
    activity: services.audit,
  });
  await app.register(actionsRoutes, { actions });
  await app.register(documentsRoutes, { billing });
  const overview = createOverview({ db, clock, currency: config.pricing.currency });
  await app.register(reportsRoutes, {
    db,
    lists: createLists({ db, clock, graceDays: config.payments.graceDays }),
    overview,
    staff,
    taxReport: createTaxReport({ db }),
  });

  await app.register(staffTokensRoutes, { tokens });
  await app.register(consoleDocsRoutes);
  await app.register(webhooksRoutes, { webhooks: services.webhooks });

  if (webBuilt) await registerWebApp(app, dist);

  app.addHook('onReady', async () => {
    if (config.console.bootstrapEmail && (await staff.bootstrap(config.console.bootstrapEmail))) {
      app.log.info(`Console: ${config.console.bootstrapEmail} is the first owner (CONSOLE_BOOTSTRAP_EMAIL)`);
    }
    await auth.purgeExpired();
  });
  app.addHook('onClose', async () => {
    await limiter.close();
    await attempts.close();
  });
  app.decorate('consoleCtx', { staff, auth, factors, tokens });
  return app;
}

/** What tests reach past HTTP: the staff service and staff sign-in. */
export type ConsoleInternals = {
  staff: ReturnType<typeof createStaffService>;
  auth: ReturnType<typeof createStaffAuth>;
  factors: ReturnType<typeof createStaffFactors>;
  tokens: ReturnType<typeof createStaffTokenService>;
};

declare module 'fastify' {
  interface FastifyInstance {
    consoleCtx: ConsoleInternals;
  }
}
