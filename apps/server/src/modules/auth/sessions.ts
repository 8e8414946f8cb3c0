import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { randomSecret, sha256 } from '../../lib/crypto';

const DAY = 86_400_000;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

export type UserRow = typeof users.$inferSelect;
export type SessionContext = { idHash: string; user: UserRow; createdAt: Date; method: string };

/** Server-side sessions: the cookie holds 256 random bits, the database only their SHA-256. */
export function createSessionService(deps: { db: Db; clock: Clock; idleDays: number; absoluteDays: number }) {
  // Every signed-in request runs this: its SQL is built once, and node-postgres prepares it once
  // per pooled connection. Times are passed as drizzle's timestamp columns pass them (ISO strings).
  const lookupQuery = deps.db
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
  return {
    absoluteMs: deps.absoluteDays * DAY,
    async create(tx: Tx, userId: string, method: string): Promise<string> {
      const secret = randomSecret();
      const now = deps.clock.now();
      await tx.insert(sessions).values({
        idHash: sha256(secret),
        userId,
        method,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + deps.absoluteDays * DAY),
      });
      return secret;
    },
    async lookup(secret: string): Promise<SessionContext | null> {
      const now = deps.clock.now();
      const idHash = sha256(secret);
      const [row] = await lookupQuery.execute({
        idHash,
        now: now.toISOString(),
        idleSince: new Date(now.getTime() - deps.idleDays * DAY).toISOString(),
      });
      if (!row) return null;
      if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        await deps.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
      }
      return { idHash, user: row.user, createdAt: row.session.createdAt, method: row.session.method };
    },
    async destroy(idHash: string) {
      await deps.db.delete(sessions).where(eq(sessions.idHash, idHash));
    },
    async destroyAllForUser(tx: Tx, userId: string) {
      await tx.delete(sessions).where(eq(sessions.userId, userId));
    },
    async purgeExpired() {
      const now = deps.clock.now();
      await deps.db
        .delete(sessions)
        .where(sql`${lt(sessions.expiresAt, now)} or ${lt(sessions.lastSeenAt, new Date(now.getTime() - deps.idleDays * DAY))}`);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
