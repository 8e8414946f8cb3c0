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
};

/** Wires the domain services together; a service that needs another domain receives its service. */
export function createServices(deps: ServiceDeps) {
  const { config, db, clock, log, mailer } = deps;
  const audit = createAuditService({ db, clock });
  const outbox = createOutboxService({ db, clock, log });
  // E-mails are rendered when sent, in the brand's one layout (see modules/email).
  const { name, logoUrl, accentColor: accent } = config.brand;
  const emailLook = { name, logoUrl, accent, publicUrl: config.publicUrl };
  outbox.on('email', async (p) => {
    await mailer.send(await renderEmailJob(p, emailLook));
  });
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
  const products = createProductService({ ...deps, billing, licenses });
  const tokens = createApiTokenService({ db, clock, audit });
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
    /** Background work: the outbox and billing renewals (safe to run on every instance). */
    startWorkers() {
      outbox.start();
      billing.startWorkers();
    },
    async stopWorkers() {
      await billing.stopWorkers();
      await outbox.stop();
    },
  };
}
export type Services = ReturnType<typeof createServices>;
