import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Clock } from './lib/clock';
import type { RateLimiter } from './lib/rate-limiter';
import type { SessionCookie, SessionGuard } from './plugins/session';
import type { RateLimit } from './plugins/rate-limit';
import type { Mailer } from './providers/mail/mailer';
import type { Metrics } from './plugins/observability';
import type { createServices } from './services';

/** Everything a module's routes receive: configuration, infrastructure and the services. */
export type AppContext = {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  limiter: RateLimiter;
  rateLimit: RateLimit;
  guard: SessionGuard;
  cookie: SessionCookie;
  services: ReturnType<typeof createServices>;
  /** Prometheus counters (e.g. license validation codes). */
  metrics: Metrics;
};
