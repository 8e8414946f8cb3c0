import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { staff, staffSessions } from './staff';

/**
 * A staff member's second factors (docs/decisions/070-staff-second-factor.md): passkeys (a WebAuthn
 * credential's id, public key and signature counter) and authenticator apps (the TOTP secret,
 * encrypted, and the last time step a code was accepted for, so that no code works twice).
 */
export const staffFactors = pgTable(
  'staff_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['passkey', 'totp'] }).notNull(),
    label: text('label').notNull(),
    /** TOTP: the base32 secret, AES-256-GCM encrypted (lib/secret-box.ts); never sent back. */
    totpSecret: text('totp_secret'),
    /** TOTP: the time step of the last accepted code; a code of that step or earlier is refused. */
    totpLastStep: integer('totp_last_step'),
    /** Passkey: the credential's id (base64url), its COSE public key (base64url) and counter. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: integer('sign_count'),
    transports: jsonb('transports').$type<string[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('staff_factors_staff_idx').on(t.staffId), uniqueIndex('staff_factors_credential_idx').on(t.credentialId)],
);

/** Recovery codes: SHA-256 of each, single use (used_at set when redeemed). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('staff_recovery_codes_staff_idx').on(t.staffId)],
);

/** A staff session whose second factor was confirmed (by checking one, or adding one), and how. */
export const staffSessionFactors = pgTable('staff_session_factors', {
  sessionIdHash: text('session_id_hash')
    .primaryKey()
    .references(() => staffSessions.idHash, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
});

/**
 * A ceremony under way in one session: a WebAuthn challenge (registration or sign-in) or a TOTP
 * secret waiting for its first code. Short-lived and single use: taken (deleted) by the step
 * that answers it, whatever the outcome.
 */
export const staffChallenges = pgTable(
  'staff_challenges',
  {
    sessionIdHash: text('session_id_hash')
      .notNull()
      .references(() => staffSessions.idHash, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['register', 'authenticate', 'totp'] }).notNull(),
    /** The challenge (base64url), or the encrypted TOTP secret. */
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionIdHash, t.kind] })],
);
