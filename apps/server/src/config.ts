import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@portal/contract';
import { VIES_DEFAULT_URL } from './providers/vies/vies';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });
const url = (protocols: string[]) =>
  optionalString.refine(
    (v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)),
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** Every variable the server reads. process.env is read here and nowhere else. */
const EnvSchema = z.object({
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
  SMTP_URL: url(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().default('Customer Portal <no-reply@localhost>'),
  REDIS_URL: url(['redis:', 'rediss:']),
  SESSION_SECRET: optionalString,
  SESSION_IDLE_DAYS: int(7, 1, 365),
  SESSION_ABSOLUTE_DAYS: int(30, 1, 365),
  RATE_LIMIT_AUTH: int(30),
  RATE_LIMIT_LINK_PER_ADDRESS: int(3),
  RATE_LIMIT_LICENSE: int(120),
  RATE_LIMIT_API_TOKEN: int(120),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  OIDC_ISSUER: url(['http:', 'https:']).transform((v) => v ?? 'https://accounts.google.com'),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: url(['http:', 'https:']),
  STRIPE_PRICE_MONTH: optionalString,
  STRIPE_PRICE_YEAR: optionalString,
  STRIPE_SENDS_RECEIPTS: optionalString.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).optional()),
  STRIPE_SENDS_DUNNING: optionalString.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).optional()),
  BRAND_NAME: z.string().default('Customer Portal'),
  BRAND_LOGO_URL: optionalString,
  BRAND_ACCENT_COLOR: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb, for example #3d52d2')
    .default('#3d52d2'),
  DOCS_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://docs.example.com'),
  PRODUCT_NAME: z.string().default('PCE'),
  SUPPORT_EMAIL: z.string().default('support@example.com'),
  SUPPORT_PHONE: z.string().default('+1 555 0100'),
  STATUS_PAGE_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://status.example.com'),
  KNOWLEDGE_BASE_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://docs.example.com/kb'),
  PLAN_NAME: z.string().default('Node license'),
  PRICE_MONTH: int(2500, 1),
  PRICE_YEAR: int(25000, 1),
  CURRENCY: z
    .string()
    .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter currency code such as usd')
    .default('usd')
    .transform((v) => v.toLowerCase()),
  PREMIUM_SUPPORT_MIN_NODES: int(10, 1),
  /** Days a failed renewal keeps the license valid while the payment is retried (ADR 049). */
  PAYMENT_GRACE_DAYS: int(14, 0, 90),
  /** The built-in engine's retries of a failed renewal: days after the failure, ascending. */
  PAYMENT_RETRY_DAYS: optionalString.transform((v, ctx) => {
    if (v === undefined) return [1, 3, 5, 7];
    const days = v.split(',').map((d) => Number(d.trim()));
    const ok = days.every((d, i) => Number.isInteger(d) && d >= 1 && d <= 90 && (i === 0 || d > days[i - 1]!));
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: 'must be whole numbers of days from 1 to 90, ascending, for example 1,3,5,7' });
      return z.NEVER;
    }
    return days;
  }),
  /** Private ranges outbound webhooks may reach anyway (a CRM inside the vendor's network), comma-separated CIDRs. */
  WEBHOOK_ALLOW_PRIVATE: optionalString.transform((v, ctx) => {
    if (v === undefined) return [];
    const parts = v
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const bad = parts.filter((p) => {
      const [ip, bits, ...rest] = p.split('/');
      const family = isIP(ip ?? '');
      if (family === 0 || rest.length > 0) return true;
      if (bits === undefined) return false;
      const n = Number(bits);
      return !/^\d{1,3}$/.test(bits) || n > (family === 4 ? 32 : 128);
    });
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated IP addresses or CIDR ranges, such as 10.1.0.0/16 (not ${bad.join(', ')})`,
      });
      return z.NEVER;
    }
    return parts;
  }),
  /** Per attempt of a webhook delivery: the time to wait for the answer. */
  WEBHOOK_TIMEOUT_SECONDS: int(15, 1, 120),
  /** Days done outbox rows, webhook delivery logs and processed payment-provider event ids are kept. */
  RETENTION_DAYS: int(30, 1, 3650),
  DOWNLOAD_URL_TTL_SECONDS: int(3600, 60, 7 * 24 * 3600),
  RELEASES_DIR: optionalString,
  DOWNLOAD_SECRET: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 characters (for example the output of: openssl rand -base64 32)',
  ),
  DEMO_RELEASE: optionalString.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).optional()),
  SUPPORT_HOURS: z.string().default('Monday to Friday, 9:00 to 17:00 CET, except public holidays'),
  SUPPORT_PORTAL_URL: url(['http:', 'https:']),
  LICENSE_SIGNING_KEY: optionalString,
  REQUEST_TIMEOUT_MS: int(30_000, 1000),
  MAX_CONCURRENT_REQUESTS: int(512, 1),
  /** Nodes (plus one per license) validation keeps in memory per instance; 0 reads the database every time. */
  LICENSE_CACHE_NODES: int(1_000_000),
  /** Server processes behind one port (node:cluster); above 1 needs PostgreSQL. */
  WEB_CONCURRENCY: int(1, 1, 256),
  METRICS_TOKEN: optionalString,
  /** The vendor console's own listener (0 turns it off) and the origin its e-mailed links use. */
  CONSOLE_PORT: int(3001, 0, 65535),
  CONSOLE_HOST: z.string().default('127.0.0.1'),
  CONSOLE_PUBLIC_URL: url(['http:', 'https:']),
  /** Made the console's first owner when there is no staff yet (a fresh install). */
  CONSOLE_BOOTSTRAP_EMAIL: optionalString.pipe(
    z
      .email('must be an e-mail address')
      .transform((v) => v.toLowerCase())
      .optional(),
  ),
  /**
   * The staff roles that must add a second factor (passkey or authenticator app) after the
   * e-mailed link: a comma-separated list of roles, `all` or `none`.
   */
  CONSOLE_REQUIRE_SECOND_FACTOR: z
    .string()
    .default('owner,billing')
    .transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      if (value === 'all') return [...STAFF_ROLES];
      // Empty is unset, as everywhere in this file: the default, never "none".
      if (value === '') return ['owner', 'billing'] as StaffRole[];
      if (value === 'none') return [];
      const roles = value.split(',').map((r) => r.trim());
      const unknown = roles.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be "all", "none" or roles among ${STAFF_ROLES.join(', ')} separated by commas, not "${unknown.join(', ')}"`,
        });
        return z.NEVER;
      }
      return [...new Set(roles)] as StaffRole[];
    }),
  /** A staff session ends after this many minutes without a request. */
  CONSOLE_SESSION_IDLE_MINUTES: int(60, 1, 24 * 60),
  /** The seller on every invoice (docs/operations: "Invoices and tax"); a fresh install runs without them. */
  SELLER_NAME: optionalString,
  /** The seller's postal address, lines separated by "\n" or " | " (the country is SELLER_COUNTRY). */
  SELLER_ADDRESS: optionalString,
  SELLER_COUNTRY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as DE')
      .transform((v) => v.toUpperCase())
      .optional(),
  ),
  SELLER_TAX_ID: optionalString,
  /** The company registration (court and number), printed on invoices. */
  SELLER_REGISTRATION: optionalString,
  /** Printed at the foot of every invoice: bank details for transfers, terms. "\n" starts a line. */
  INVOICE_FOOTER: optionalString,
  /** The seller charges VAT (the built-in tax engine); needs SELLER_COUNTRY and SELLER_TAX_ID. */
  SELLER_VAT_REGISTERED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  /** The vendor's own copy of the tax rates file (default: the one shipped, tax-rates.json). */
  TAX_RATES_FILE: optionalString,
  /** VIES, the EU's VAT number check (default: the European Commission's service). */
  VIES_URL: url(['http:', 'https:']),
  VIES_TIMEOUT_MS: int(8000, 100, 60_000),
  WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_CLIENT_SECRET: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither',
    );
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_PUBLISHABLE_KEY) {
    // Without it the browser cannot load Stripe's card form, so no card could be added.
    throw new ConfigError('Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set');
  }
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    // PGlite is a database inside one process: a second process cannot open it.
    throw new ConfigError(
      'Invalid configuration:\n  WEB_CONCURRENCY: above 1 needs DATABASE_URL (the embedded database serves one process)',
    );
  }
  if (e.CONSOLE_PORT !== 0 && e.CONSOLE_PORT === e.PORT) {
    throw new ConfigError(
      'Invalid configuration:\n  CONSOLE_PORT: must differ from PORT (the console has a listener of its own; 0 turns it off)',
    );
  }
  if (e.SELLER_VAT_REGISTERED && (!e.SELLER_COUNTRY || !e.SELLER_TAX_ID)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.SELLER_COUNTRY ? 'SELLER_TAX_ID' : 'SELLER_COUNTRY'}: required when SELLER_VAT_REGISTERED is true (invoices name the seller's country and VAT number)`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const consoleUrl = (e.CONSOLE_PUBLIC_URL ?? `http://localhost:${e.CONSOLE_PORT}`).replace(/\/+$/, '');
  if (e.CONSOLE_PORT !== 0 && new URL(consoleUrl).origin === new URL(publicUrl).origin) {
    throw new ConfigError(
      'Invalid configuration:\n  CONSOLE_PUBLIC_URL: must be another origin than PUBLIC_URL (the console keeps its cookies apart)',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET,
    session: { idleDays: e.SESSION_IDLE_DAYS, absoluteDays: e.SESSION_ABSOLUTE_DAYS },
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, timeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS },
    retentionDays: e.RETENTION_DAYS,
    rateLimits: {
      authPerMinute: e.RATE_LIMIT_AUTH,
      linkPerAddressPerMinute: e.RATE_LIMIT_LINK_PER_ADDRESS,
      licensePerMinute: e.RATE_LIMIT_LICENSE,
      apiTokenPerMinute: e.RATE_LIMIT_API_TOKEN,
    },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.OIDC_ISSUER }
        : undefined,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? '',
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
          apiUrl: e.STRIPE_API_URL,
          priceMonth: e.STRIPE_PRICE_MONTH,
          priceYear: e.STRIPE_PRICE_YEAR,
          /** Stripe e-mails its own receipts (its "Successful payments" setting): the portal sends none for Stripe's invoices. */
          sendsReceipts: e.STRIPE_SENDS_RECEIPTS === 'true',
          /** Stripe e-mails its customers about failed payments: the portal's dunning e-mails are not sent for Stripe. */
          sendsDunning: e.STRIPE_SENDS_DUNNING === 'true',
        }
      : undefined,
    brand: {
      name: e.BRAND_NAME,
      logoUrl: e.BRAND_LOGO_URL,
      /** The e-mails' accent (buttons, the brand mark); the web app's is VITE_ACCENT_COLOR. */
      accentColor: e.BRAND_ACCENT_COLOR,
      docsUrl: e.DOCS_URL,
      productName: e.PRODUCT_NAME,
    },
    support: {
      email: e.SUPPORT_EMAIL,
      phone: e.SUPPORT_PHONE,
      statusPageUrl: e.STATUS_PAGE_URL,
      knowledgeBaseUrl: e.KNOWLEDGE_BASE_URL,
      premiumMinNodes: e.PREMIUM_SUPPORT_MIN_NODES,
      hours: e.SUPPORT_HOURS,
      portalUrl: e.SUPPORT_PORTAL_URL,
    },
    pricing: {
      plan: e.PLAN_NAME,
      currency: e.CURRENCY,
      monthUnitAmount: e.PRICE_MONTH,
      yearUnitAmount: e.PRICE_YEAR,
    },
    seller: {
      name: e.SELLER_NAME,
      addressLines: (e.SELLER_ADDRESS ?? '')
        .split(/\\n|\n| \| /)
        .map((l) => l.trim())
        .filter(Boolean),
      country: e.SELLER_COUNTRY,
      taxId: e.SELLER_TAX_ID,
      registration: e.SELLER_REGISTRATION,
      footerLines: (e.INVOICE_FOOTER ?? '')
        .split(/\\n|\n/)
        .map((l) => l.trim())
        .filter(Boolean),
      vatRegistered: e.SELLER_VAT_REGISTERED,
    },
    tax: { ratesFile: e.TAX_RATES_FILE ? path.resolve(e.TAX_RATES_FILE) : undefined },
    vies: { url: e.VIES_URL ?? VIES_DEFAULT_URL, timeoutMs: e.VIES_TIMEOUT_MS },
    payments: { graceDays: e.PAYMENT_GRACE_DAYS, retryDays: e.PAYMENT_RETRY_DAYS },
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    releases: {
      dir: path.resolve(e.RELEASES_DIR ?? path.join(dataDir, 'downloads')),
      /** Shared by every instance that serves downloads; else kept in $DATA_DIR/download-secret. */
      secret: e.DOWNLOAD_SECRET,
      /** A demo ISO for an empty releases folder: on by default only for the embedded setup. */
      demo: e.DEMO_RELEASE ? e.DEMO_RELEASE === 'true' : !e.DATABASE_URL,
    },
    licenseSigningKey: e.LICENSE_SIGNING_KEY,
    licenseCacheNodes: e.LICENSE_CACHE_NODES,
    webConcurrency: e.WEB_CONCURRENCY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConcurrentRequests: e.MAX_CONCURRENT_REQUESTS,
    metricsToken: e.METRICS_TOKEN,
    workers: e.WORKERS,
    console: {
      /** 0: no console listener. */
      port: e.CONSOLE_PORT,
      host: e.CONSOLE_HOST,
      publicUrl: consoleUrl,
      secureCookies: consoleUrl.startsWith('https://'),
      bootstrapEmail: e.CONSOLE_BOOTSTRAP_EMAIL,
      /** Roles that must add and confirm a second factor (docs/decisions/070-staff-second-factor.md). */
      requireSecondFactor: e.CONSOLE_REQUIRE_SECOND_FACTOR as readonly StaffRole[],
      sessionIdleMinutes: e.CONSOLE_SESSION_IDLE_MINUTES,
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** A secret kept in $DATA_DIR when not configured, so restarts keep sessions and signatures valid. */
export function persistentSecret(
  dataDir: string,
  name: string,
  make: () => string = () => randomBytes(32).toString('base64url'),
): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  // Several processes on one DATA_DIR (WEB_CONCURRENCY) may make the secret at once: each writes
  // its own file and links it into place, and whoever comes second reads the winner's, whole.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}
