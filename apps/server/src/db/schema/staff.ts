import { sql } from 'drizzle-orm';
import { index, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { STAFF_AUDIT_ACTIONS, STAFF_ROLES } from '@portal/contract';
import { loginLinkColumns, users } from './users';

export const staffRole = pgEnum('staff_role', STAFF_ROLES);
/** What a staff audit row records (docs/decisions/116-typed-audit-and-enum-columns.md). */
export const staffAuditAction = pgEnum('staff_audit_action', STAFF_AUDIT_ACTIONS);

/** The vendor's staff who sign in to the console (docs/decisions/035-vendor-console-server.md). */
export const staff = pgTable(
  'staff',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    role: staffRole('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /** Removed staff keep their row (the audit log names them); they can no longer sign in. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_email_idx').on(sql`lower(${t.email})`)],
);

/** Staff sign-in links: the customers' login_links columns and rules, in a table of their own. */
export const staffLoginLinks = pgTable('staff_login_links', loginLinkColumns(), (t) => [
  index('staff_login_links_email_idx').on(t.email),
]);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    /** SHA-256 of the cookie's random id. */
    idHash: text('id_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);

/**
 * Staff API tokens (docs/decisions/095-staff-api-tokens.md): one staff role each, always an expiry.
 * Only the SHA-256 of the secret is stored; revoked rows are kept, so the audit log can name them.
 */
export const staffApiTokens = pgTable(
  'staff_api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    role: staffRole('role').notNull(),
    /** SHA-256 (hex) of the whole secret, `stk_…`. */
    tokenHash: text('token_hash').notNull().unique(),
    /** `stk_` and the next 4 characters. */
    hint: text('hint').notNull(),
    /** The owner who created it; their removal or loss of the owner role revokes it. */
    createdBy: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** To the minute, written at most once a minute per token. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('staff_api_tokens_created_idx').on(t.createdAt), index('staff_api_tokens_creator_idx').on(t.createdBy)],
);

/** Every staff action: who (id and address, kept after removal), what, why, to whom. */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    staffEmail: text('staff_email').notNull(),
    /** The staff API token the action came through (staff_email then names the token). */
    tokenId: uuid('token_id').references(() => staffApiTokens.id, { onDelete: 'set null' }),
    action: staffAuditAction('action').notNull(),
    reason: text('reason').notNull(),
    /** The customer acted on; null for staff management and once the customer is deleted. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subject: text('subject'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_audit_at_idx').on(t.at), index('staff_audit_user_idx').on(t.userId, t.at)],
);
