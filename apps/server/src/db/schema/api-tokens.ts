import { sql } from 'drizzle-orm';
import { check, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { API_TOKEN_SCOPES } from '@portal/contract';
import { users } from './users';

export const apiTokenScope = pgEnum('api_token_scope', API_TOKEN_SCOPES);

/**
 * A customer's personal API tokens (docs/decisions/090-api-tokens.md). Only the SHA-256 of the
 * secret is stored; revoked rows are kept (revoked_at) so the export and the log can name them.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: apiTokenScope('scopes').array().notNull(),
    /** SHA-256 (hex) of the whole secret, `pat_…`. */
    tokenHash: text('token_hash').notNull().unique(),
    /** `pat_` and the next 4 characters: tells tokens apart on the profile page. */
    hint: text('hint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** To the minute, written at most once a minute per token (api-tokens.service.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('api_tokens_user_idx').on(t.userId, t.createdAt),
    check('api_tokens_scopes_not_empty', sql`cardinality(${t.scopes}) > 0`),
  ],
);
