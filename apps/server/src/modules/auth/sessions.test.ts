import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema/index';
import { manualClock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';
import { createTestDatabase } from '../../../test/helpers';
import { createSessionService, type SessionService } from './sessions';

const DAY = 86_400_000;
const MINUTE = 60_000;

let database: Database;
let userId: string;
const clock = manualClock(new Date('2030-01-01T00:00:00Z'));
let svc: SessionService;

beforeAll(async () => {
  database = await createTestDatabase();
  svc = createSessionService({ db: database.db, clock, idleDays: 7, absoluteDays: 30 });
  const [user] = await database.db.insert(users).values({ email: 'session-owner@example.com' }).returning();
  userId = user!.id;
});
afterAll(() => database.close());

const lastSeenOf = async (secret: string) =>
  (
    await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(secret)))
  )[0]!.lastSeenAt;

describe('lookup (a prepared statement)', () => {
  it('finds a session with its user, and nothing for an unknown or destroyed secret', async () => {
    const secret = await svc.create(database.db, userId, 'link');
    const found = await svc.lookup(secret);
    expect(found).toMatchObject({ idHash: sha256(secret), method: 'link', createdAt: clock.now() });
    expect(found?.user).toMatchObject({ id: userId, email: 'session-owner@example.com' });
    expect(await svc.lookup('x'.repeat(43))).toBeNull();
    await svc.destroy(sha256(secret));
    expect(await svc.lookup(secret)).toBeNull();
  });

  it('ends a session idle for longer than the idle limit, to the millisecond', async () => {
    const secret = await svc.create(database.db, userId, 'link');
    clock.advance(7 * DAY - 1);
    expect(await svc.lookup(secret)).not.toBeNull();
    // That lookup moved last-seen up: idle again from now.
    expect((await lastSeenOf(secret)).getTime()).toBe(clock.now().getTime());
    clock.advance(7 * DAY);
    expect(await svc.lookup(secret)).toBeNull();
  });

  it('writes last-seen at most every 5 minutes', async () => {
    const secret = await svc.create(database.db, userId, 'link');
    const created = clock.now().getTime();
    clock.advance(5 * MINUTE);
    await svc.lookup(secret);
    expect((await lastSeenOf(secret)).getTime()).toBe(created);
    clock.advance(1);
    await svc.lookup(secret);
    expect((await lastSeenOf(secret)).getTime()).toBe(clock.now().getTime());
  });

  it('ends a session at its absolute expiry however active it is', async () => {
    const secret = await svc.create(database.db, userId, 'link');
    for (let day = 0; day < 29; day++) {
      clock.advance(DAY);
      expect(await svc.lookup(secret)).not.toBeNull();
    }
    clock.advance(DAY - 1);
    expect(await svc.lookup(secret)).not.toBeNull();
    clock.advance(1);
    expect(await svc.lookup(secret)).toBeNull();
  });

  it('works from several services on one database, in parallel', async () => {
    const other = createSessionService({ db: database.db, clock, idleDays: 7, absoluteDays: 30 });
    const secrets = await Promise.all(Array.from({ length: 5 }, () => svc.create(database.db, userId, 'link')));
    const found = await Promise.all(secrets.flatMap((s) => [svc.lookup(s), other.lookup(s)]));
    expect(found.map((f) => f?.user.id)).toEqual(Array.from({ length: 10 }, () => userId));
  });
});
