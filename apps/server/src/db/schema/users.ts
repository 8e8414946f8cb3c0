import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique case-insensitively. */
    email: text('email').notNull(),
    fname: text('fname').notNull().default(''),
    lname: text('lname').notNull().default(''),
    picture: text('picture'),
    company: text('company'),
    onboarded: boolean('onboarded').notNull().default(false),
    /** `issuer|subject` of the external identity, when signed in with Google. */
    identitySubject: text('identity_subject'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_identity_subject_idx').on(t.identitySubject),
  ],
);

/** The columns of an e-mailed sign-in link (the customers' table and the console staff's). */
export const loginLinkColumns = () => ({
  /** SHA-256 of the secret sent by e-mail; the secret itself is never stored. */
  tokenHash: text('token_hash').primaryKey(),
  email: text('email').notNull(),
  redirectTo: text('redirect_to'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  voidedAt: timestamp('voided_at', { withTimezone: true }),
});

export const loginLinks = pgTable('login_links', loginLinkColumns(), (t) => [index('login_links_email_idx').on(t.email)]);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie's random id. */
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);
