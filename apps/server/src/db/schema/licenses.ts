import { bigint, date, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';
import { subscriptions } from './billing';

/** What a license's row stores; 'expired' is computed from expires_at, never stored. */
export const licenseStatus = pgEnum('license_status', ['active', 'suspended']);

export const licenses = pgTable(
  'licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    /** Null once the owner's account is deleted (the license is revoked first). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    status: licenseStatus('status').notNull().default('active'),
    maxNodes: integer('max_nodes').notNull(),
    /**
     * The number of its nodes, kept by the licenses service in the transaction that adds or
     * removes one (under the license's row lock), so validation and lists never count them.
     */
    activeNodes: integer('active_nodes').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** While its subscription's payment is failing: the grace's end (= expiresAt), which answers carry. */
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** What staff told the customer when they suspended it (the portal shows it); cleared on resume. */
    suspensionMessage: text('suspension_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('licenses_key_idx').on(t.key),
    index('licenses_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('licenses_subscription_idx').on(t.subscriptionId),
  ],
);

export const nodes = pgTable(
  'nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    licenseId: uuid('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    hostname: text('hostname'),
    activatedAt: timestamp('activated_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('nodes_license_fingerprint_idx').on(t.licenseId, t.fingerprint),
    index('nodes_license_activated_idx').on(t.licenseId, t.activatedAt, t.id),
  ],
);

/**
 * Validations answered per UTC day (all of them, and those answered valid), for the console's
 * overview. Counted in memory on the validation path and added here with the batched last-seen
 * writes (modules/licenses/last-seen-buffer.ts), so a validation never writes a row of its own;
 * several server instances add to the same day.
 */
export const validationDays = pgTable('validation_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  validations: bigint('validations', { mode: 'number' }).notNull().default(0),
  valid: bigint('valid', { mode: 'number' }).notNull().default(0),
});
