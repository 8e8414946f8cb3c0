import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Notifications } from './db/notifications';
import type { Clock } from './lib/clock';
import type { Mailer } from './providers/mail/mailer';
import { httpVatRegistry } from './providers/vies/vies';
import { createAuditService } from './modules/audit/audit.service';
import { createAuthService } from './modules/auth/auth.service';
import { createSessionService } from './modules/auth/sessions';
import { createOutboxService } from './modules/outbox/outbox.service';
import { renderEmailJob } from './modules/email/render';
import { createUserService } from './modules/users/users.service';
import { createLicenseService } from './modules/licenses/licenses.service';
import { createBillingService } from './modules/billing/billing.service';
import { createProductService } from './modules/products/products.service';
import { createAccountService } from './modules/users/account.service';
import { createApiTokenService } from './modules/api-tokens/api-tokens.service';
import { persistentSecret } from './config';
import { secretBox, type SecretBox } from './lib/secret-box';
import { createWebhookService } from './modules/webhooks/webhooks.service';
import { pruneWebhookData } from './modules/webhooks/webhook-retention';
import { createWebhookTransport, type WebhookTransport } from './modules/webhooks/webhook-transport';

export type ServiceDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** The database's notifications (license validation keeps its state current with them). */
  notifications?: Notifications | undefined;
  /** The database runs its statements in this thread (the embedded database): long ones hold every request. */
  databaseInThread?: boolean | undefined;
  /** How webhooks reach their endpoints (tests inject a resolver and connector through it). */
  webhookTransport?: WebhookTransport | undefined;
};

/** Wires the domain services together; a service that needs another domain receives its service. */
export function createServices(deps: ServiceDeps) {
  const { config, db, clock, log, mailer } = deps;
  const outbox = createOutboxService({ db, clock, log });
  const webhooks = createWebhookService({
    db,
    clock,
    log,
    outbox,
    box: lazyBox(() => secretBox(config.sessionSecret ?? persistentSecret(config.dataDir, 'session-secret'), 'webhook-secrets')),
    transport:
      deps.webhookTransport ??
      createWebhookTransport({
        allowPrivate: config.webhooks.allowPrivate,
        timeoutMs: config.webhooks.timeoutSeconds * 1000,
        maxResponseBytes: 64 * 1024,
      }),
    consoleUrl: config.console.publicUrl,
  });
  webhooks.register();
  const audit = createAuditService({ db, clock, onRecord: webhooks.announce });
  // E-mails are rendered when sent, in the brand's one layout (see modules/email).
  const { name, logoUrl, accentColor: accent } = config.brand;
  const emailLook = { name, logoUrl, accent, publicUrl: config.publicUrl };
  const sessions = createSessionService({ db, clock, ...config.session });
  const users = createUserService({ db, clock, audit });
  const auth = createAuthService({
    db,
    clock,
    log,
    publicUrl: config.publicUrl,
    brandName: config.brand.name,
    sessions,
    outbox,
    audit,
    users,
  });
  const licenses = createLicenseService({ ...deps, audit, users });
  const vat = httpVatRegistry(config.vies);
  const billing = createBillingService({ ...deps, audit, outbox, licenses, vat });
  outbox.on('email', async (p) => {
    const msg = await renderEmailJob(p, emailLook);
    const documents = 'template' in p ? (p.attach ?? []) : [];
    // A document is rendered now from its stored record: the same bytes as its download.
    const attachments = await Promise.all(documents.map((d) => billing.documentAttachment(d)));
    await mailer.send(attachments.length ? { ...msg, attachments } : msg);
  });
  const products = createProductService({ ...deps, billing, licenses });
  const tokens = createApiTokenService({ db, clock, audit });
  /**
   * Retention: done outbox rows, the webhook delivery log and the payment provider's processed
   * event ids older than RETENTION_DAYS are deleted, hourly, by whichever instance runs it.
   */
  async function prune() {
    const before = new Date(clock.now().getTime() - config.retentionDays * 86_400_000);
    const outboxRows = await outbox.pruneDone(before);
    return { outbox: outboxRows, ...(await pruneWebhookData(db, before)) };
  }
  const retention = (() => {
    let timer: NodeJS.Timeout | undefined;
    return {
      start() {
        timer = setInterval(() => {
          prune().catch((err: unknown) => log.warn({ err }, 'retention pruning failed'));
        }, 3_600_000);
        timer.unref();
      },
      stop() {
        if (timer) clearInterval(timer);
      },
    };
  })();
  const account = createAccountService({ ...deps, audit, outbox, users, sessions, auth, billing, licenses });

  return {
    audit,
    outbox,
    sessions,
    users,
    auth,
    licenses,
    billing,
    products,
    account,
    tokens,
    webhooks,
    /** Background work: the outbox and billing renewals (safe to run on every instance). */
    startWorkers() {
      outbox.start();
      billing.startWorkers();
      retention.start();
    },
    async stopWorkers() {
      retention.stop();
      await billing.stopWorkers();
      await outbox.stop();
    },
    /** Deletes what the retention period no longer keeps (see retentionOf). */
    prune: () => prune(),
  };
}
export type Services = ReturnType<typeof createServices>;

/** The server's secret is read (or made, in DATA_DIR) only once a webhook secret is sealed or opened. */
function lazyBox(make: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  return {
    seal: (plain) => (box ??= make()).seal(plain),
    open: (sealed) => (box ??= make()).open(sealed),
  };
}
