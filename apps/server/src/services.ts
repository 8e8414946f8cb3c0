import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import type { Mailer } from './providers/mail/mailer';
import { createAuditService } from './modules/audit/audit.service';
import { createAuthService } from './modules/auth/auth.service';
import { createSessionService } from './modules/auth/sessions';
import { createOutboxService } from './modules/outbox/outbox.service';
import { createUserService } from './modules/users/users.service';

export type ServiceDeps = { config: Config; db: Db; clock: Clock; log: FastifyBaseLogger; mailer: Mailer };

/** Wires the domain services together; a service that needs another domain receives its service. */
export function createServices(deps: ServiceDeps) {
  const { config, db, clock, log, mailer } = deps;
  const audit = createAuditService({ db, clock });
  const outbox = createOutboxService({ db, clock, log });
  outbox.on('email', async (p) => {
    await mailer.send(p as unknown as Parameters<Mailer['send']>[0]);
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
  });
  return { audit, outbox, sessions, users, auth };
}
export type Services = ReturnType<typeof createServices>;
