import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { loginLinks as loginLinksTable, sessions, users } from '../../db/schema/index';

export type LinkRow = typeof loginLinksTable.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * Sign-in links: the only place their queries are written. The vendor console's staff links live
 * in a table of the same columns (`staff_login_links`), so one set of queries serves both.
 */
export function linksRepositoryFor(loginLinks: typeof loginLinksTable) {
  return {
    /** Voids the address's links that are neither used nor voided yet. */
    async voidOpen(tx: Tx, email: string, now: Date): Promise<void> {
      await tx
        .update(loginLinks)
        .set({ voidedAt: now })
        .where(and(eq(loginLinks.email, email), isNull(loginLinks.usedAt), isNull(loginLinks.voidedAt)));
    },
    async insert(tx: Tx, values: typeof loginLinks.$inferInsert): Promise<void> {
      await tx.insert(loginLinks).values(values);
    },
    /** Marks the link used if it is still usable, in one statement, so only one redemption wins. */
    async redeem(tx: Tx, tokenHash: string, now: Date): Promise<LinkRow | undefined> {
      const [row] = await tx
        .update(loginLinks)
        .set({ usedAt: now })
        .where(
          and(
            eq(loginLinks.tokenHash, tokenHash),
            isNull(loginLinks.usedAt),
            isNull(loginLinks.voidedAt),
            sql`${loginLinks.expiresAt} > ${now.toISOString()}`,
          ),
        )
        .returning();
      return row;
    },
    async findByHash(db: Tx, tokenHash: string): Promise<LinkRow | undefined> {
      const [row] = await db.select().from(loginLinks).where(eq(loginLinks.tokenHash, tokenHash)).limit(1);
      return row;
    },
    /** Every link of the address, whatever its state (`email` in any case). */
    async deleteForEmail(tx: Tx, email: string): Promise<void> {
      await tx.delete(loginLinks).where(sql`lower(${loginLinks.email}) = ${email.toLowerCase()}`);
    },
  };
}

export const loginLinksRepository = linksRepositoryFor(loginLinksTable);

/** Sessions: the only place their queries are written. */
export const sessionsRepository = {
  /**
   * Every signed-in request runs this: its SQL is built once, and node-postgres prepares it once
   * per pooled connection. Times are passed as drizzle's timestamp columns pass them (ISO strings).
   */
  prepareLookup(db: Db) {
    const query = db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.idHash, sql.placeholder('idHash')),
          gt(sessions.expiresAt, sql.placeholder('now')),
          gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
        ),
      )
      .limit(1)
      .prepare('sessions_lookup');
    return async (idHash: string, now: Date, idleSince: Date) => {
      const [row] = await query.execute({ idHash, now: now.toISOString(), idleSince: idleSince.toISOString() });
      return row;
    };
  },
  async insert(tx: Tx, values: typeof sessions.$inferInsert): Promise<void> {
    await tx.insert(sessions).values(values);
  },
  async touch(db: Tx, idHash: string, now: Date): Promise<void> {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
  },
  async listForUser(db: Tx, userId: string): Promise<SessionRow[]> {
    return db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.createdAt));
  },
  async delete(db: Tx, idHash: string): Promise<void> {
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
  },
  async deleteForUser(tx: Tx, userId: string): Promise<void> {
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  },
  /** Sessions past their absolute expiry, or idle since before `idleSince`. */
  async deleteExpired(db: Tx, now: Date, idleSince: Date): Promise<void> {
    await db.delete(sessions).where(sql`${lt(sessions.expiresAt, now)} or ${lt(sessions.lastSeenAt, idleSince)}`);
  },
};
