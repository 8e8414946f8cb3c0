import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { staff, staffApiTokens } from '../db/schema/index';

export type StaffTokenRow = typeof staffApiTokens.$inferSelect;

/** The queries of staff API tokens; rules live in staff-tokens.service.ts. */
export const staffTokensRepository = {
  /** Tokens not revoked (expired ones included), newest first. */
  list(db: Tx) {
    return db
      .select()
      .from(staffApiTokens)
      .where(isNull(staffApiTokens.revokedAt))
      .orderBy(desc(staffApiTokens.createdAt), desc(staffApiTokens.id));
  },

  async countOpen(db: Tx): Promise<number> {
    const [row] = await db.select({ n: count() }).from(staffApiTokens).where(isNull(staffApiTokens.revokedAt));
    return row?.n ?? 0;
  },

  async insert(tx: Tx, row: typeof staffApiTokens.$inferInsert): Promise<StaffTokenRow> {
    const [inserted] = await tx.insert(staffApiTokens).values(row).returning();
    return inserted!;
  },

  async revoke(tx: Tx, id: string, at: Date): Promise<StaffTokenRow | undefined> {
    const [row] = await tx
      .update(staffApiTokens)
      .set({ revokedAt: at })
      .where(and(eq(staffApiTokens.id, id), isNull(staffApiTokens.revokedAt)))
      .returning();
    return row;
  },

  /** Revokes every open token a member created (their removal, or their loss of the owner role). */
  revokeCreatedBy(tx: Tx, staffId: string, at: Date) {
    return tx
      .update(staffApiTokens)
      .set({ revokedAt: at })
      .where(and(eq(staffApiTokens.createdBy, staffId), isNull(staffApiTokens.revokedAt)))
      .returning();
  },

  /** The token with this hash and its creator (null once gone), whatever its state (the service decides). */
  async findByHash(db: Tx, tokenHash: string) {
    const [row] = await db
      .select({ token: staffApiTokens, creator: staff })
      .from(staffApiTokens)
      .leftJoin(staff, eq(staff.id, staffApiTokens.createdBy))
      .where(eq(staffApiTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  },

  /** Sets last_used_at to `minute` when the stored one is older than it (or unset). */
  async touch(db: Tx, id: string, minute: Date): Promise<void> {
    await db
      .update(staffApiTokens)
      .set({ lastUsedAt: minute })
      .where(and(eq(staffApiTokens.id, id), or(isNull(staffApiTokens.lastUsedAt), lt(staffApiTokens.lastUsedAt, minute))));
  },
};
