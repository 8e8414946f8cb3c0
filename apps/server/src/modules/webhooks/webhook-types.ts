import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { OutboxService } from '../outbox/outbox.service';
import type { WebhookTransport } from './webhook-transport';

/** Who acts in the console (the staff audit log names them). */
export type WebhookActor = { id: string | null; email: string };

export type WebhookServiceDeps = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  outbox: Pick<OutboxService, 'enqueue' | 'on' | 'kick'>;
  /** Seals the endpoints' secrets at rest. */
  box: SecretBox;
  transport: WebhookTransport;
  /** The console's address, for the e-mail that says an endpoint was turned off. */
  consoleUrl: string;
};
