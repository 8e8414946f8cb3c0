import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The vendor's receivers of outbound webhooks (Standard Webhooks). The signing secret is sealed
 * (lib/secret-box.ts); during a rotation the previous one signs too until `previousSecretExpiresAt`.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** The event types it wants; empty means every type of the catalogue. */
  eventTypes: text('event_types')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  enabled: boolean('enabled').notNull().default(true),
  /** Why it was turned off by the portal itself (`failing`), null when by staff or enabled. */
  disabledReason: text('disabled_reason'),
  secretSealed: text('secret_sealed').notNull(),
  previousSecretSealed: text('previous_secret_sealed'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One event of the catalogue as it happened: its payload is the resource's state then. */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    /** The `webhook-id` header: the same on every attempt and on a resend, for receivers' de-duplication. */
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_messages_created_idx').on(t.createdAt)],
);

/** The last sequence number given to each resource's events (one row per resource, bumped under its lock). */
export const webhookSequences = pgTable(
  'webhook_sequences',
  {
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.resourceType, t.resourceId] })],
);

/** pending | delivered | failed (its retries ran out) | cancelled (its endpoint was disabled or deleted) */
export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['pending', 'delivered', 'failed', 'cancelled']);

/** A message on its way to one endpoint (a resend is a delivery of its own). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_message_idx').on(t.messageId),
  ],
);

/** The delivery log: every attempt, its request and the answer (or why there was none). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    url: text('url').notNull(),
    /** The `webhook-timestamp` this attempt was signed with. */
    signedAt: integer('signed_at').notNull(),
    responseStatus: integer('response_status'),
    /** The start of the answer's body (capped). */
    responseBody: text('response_body'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_attempts_delivery_idx').on(t.deliveryId),
    index('webhook_attempts_at_idx').on(t.at),
  ],
);
