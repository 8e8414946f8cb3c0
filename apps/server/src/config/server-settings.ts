import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { int, optionalString, url } from './env-parsers';

/** The process itself: where it listens, its data, database, mail and Redis, its limits and workers. */
export const ServerEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(3000, 0, 65535),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: url(['http:', 'https:']),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: optionalString.transform((v, ctx) => {
    if (v === undefined || v === 'false') return false;
    if (v === 'true') return true;
    // A list of proxy addresses or ranges; Fastify ignores hop counts, so they are refused here.
    const parts = v.split(',').map((p) => p.trim());
    const ok = parts.every((p) => ['loopback', 'linklocal', 'uniquelocal'].includes(p) || isIP(p.split('/')[0] ?? '') !== 0);
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be true, false, or a comma-separated list of proxy IP addresses or CIDR ranges (or loopback)',
      });
      return z.NEVER;
    }
    return parts.join(',');
  }),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  /** How long a request waits for a PostgreSQL connection, and then for each query, before it answers 503. */
  DATABASE_TIMEOUT_MS: int(5_000, 100, 600_000),
  SMTP_URL: url(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().default('Customer Portal <no-reply@localhost>'),
  REDIS_URL: url(['redis:', 'rediss:']),
  RATE_LIMIT_AUTH: int(30),
  RATE_LIMIT_LINK_PER_ADDRESS: int(3),
  RATE_LIMIT_LICENSE: int(120),
  RATE_LIMIT_API_TOKEN: int(120),
  /** Days done outbox rows, webhook delivery logs and processed payment-provider event ids are kept. */
  RETENTION_DAYS: int(30, 1, 3650),
  REQUEST_TIMEOUT_MS: int(30_000, 1000),
  MAX_CONCURRENT_REQUESTS: int(512, 1),
  /** Server processes behind one port (node:cluster); above 1 needs PostgreSQL. */
  WEB_CONCURRENCY: int(1, 1, 256),
  METRICS_TOKEN: optionalString,
  WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
type ServerEnv = z.output<typeof ServerEnvSchema>;

/** What the variables together cannot be, as `VARIABLE: why`; undefined when they fit. */
export function serverProblem(e: ServerEnv): string | undefined {
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    // PGlite is a database inside one process: a second process cannot open it.
    return 'WEB_CONCURRENCY: above 1 needs DATABASE_URL (the embedded database serves one process)';
  }
  return undefined;
}

export function serverSettings(e: ServerEnv) {
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    retentionDays: e.RETENTION_DAYS,
    rateLimits: {
      authPerMinute: e.RATE_LIMIT_AUTH,
      linkPerAddressPerMinute: e.RATE_LIMIT_LINK_PER_ADDRESS,
      licensePerMinute: e.RATE_LIMIT_LICENSE,
      apiTokenPerMinute: e.RATE_LIMIT_API_TOKEN,
    },
    webConcurrency: e.WEB_CONCURRENCY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConcurrentRequests: e.MAX_CONCURRENT_REQUESTS,
    metricsToken: e.METRICS_TOKEN,
    workers: e.WORKERS,
  };
}
