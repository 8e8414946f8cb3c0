import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { apiTokens, users } from '../../db/schema/index';

export type ApiTokenRow = typeof apiTokens.$inferSelect;
type NewApiToken = typeof apiTokens.$inferInsert;

/** The queries of personal API tokens; rules live in api-tokens.service.ts. */
export const apiTokensRepository = {
  /** The user's tokens that are not revoked (expired ones included), newest first. */
  listForUser(db: Tx, userId: string) {
    return db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  },

  async countForUser(db: Tx, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
    return row?.n ?? 0;
  },

  /** Serialises token creation per user, so the limit holds under parallel requests. */
  async lockUser(tx: Tx, userId: string): Promise<boolean> {
    const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return rows.length > 0;
  },

  async insert(tx: Tx, row: NewApiToken): Promise<ApiTokenRow> {
    const [inserted] = await tx.insert(apiTokens).values(row).returning();
    return inserted!;
  },

  async revoke(tx: Tx, userId: string, id: string, at: Date): Promise<ApiTokenRow | undefined> {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning();
    return row;
  },

  /** The token with this hash and its user, whatever its state (the service decides). */
  async findByHash(db: Tx, tokenHash: string) {
    const [row] = await db
      .select({ token: apiTokens, user: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  },

  /**
   * Sets last_used_at to `minute` when the stored one is older than `before` (or unset); true
   * when this call changed it. Concurrent uses race here, and exactly one wins.
   */
  async touch(tx: Tx, id: string, minute: Date, before: Date): Promise<boolean> {
    const rows = await tx
      .update(apiTokens)
      .set({ lastUsedAt: minute })
      .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, before))))
      .returning({ id: apiTokens.id });
    return rows.length > 0;
  },
};
