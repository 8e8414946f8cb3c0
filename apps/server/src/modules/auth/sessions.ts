import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomSecret, sha256 } from '../../lib/crypto';
import type { UserRow } from '../users/users.repository';
import { sessionsRepository as repo } from './auth.repository';

const DAY = 86_400_000;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

export type SessionContext = { idHash: string; user: UserRow; createdAt: Date; method: string };

/** Server-side sessions: the cookie holds 256 random bits, the database only their SHA-256. */
export function createSessionService(deps: { db: Db; clock: Clock; idleDays: number; absoluteDays: number }) {
  const lookupQuery = repo.prepareLookup(deps.db);
  const idleSince = (now: Date) => new Date(now.getTime() - deps.idleDays * DAY);
  return {
    absoluteMs: deps.absoluteDays * DAY,
    async create(tx: Tx, userId: string, method: string): Promise<string> {
      const secret = randomSecret();
      const now = deps.clock.now();
      await repo.insert(tx, {
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
      const row = await lookupQuery(idHash, now, idleSince(now));
      if (!row) return null;
      if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touch(deps.db, idHash, now);
      return { idHash, user: row.user, createdAt: row.session.createdAt, method: row.session.method };
    },
    /** The user's sessions, newest first (the account export). */
    listForUser(userId: string) {
      return repo.listForUser(deps.db, userId);
    },
    async destroy(idHash: string) {
      await repo.delete(deps.db, idHash);
    },
    /** Ends every session of the user (account deletion), in the caller's transaction. */
    async endAllForUser(tx: Tx, userId: string) {
      await repo.deleteForUser(tx, userId);
    },
    async purgeExpired() {
      const now = deps.clock.now();
      await repo.deleteExpired(deps.db, now, idleSince(now));
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
