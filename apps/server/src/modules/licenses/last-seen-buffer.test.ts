import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { createTestDatabase } from '../../../test/helpers';
import { createLastSeenBuffer } from './last-seen-buffer';
import { generateLicenseKey } from './license-key';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A license with `n` nodes, seen two minutes ago; answers their ids. */
async function nodes(n: number): Promise<string[]> {
  const [license] = rowsOf<{ id: string }>(
    await database.db.execute(
      sql`insert into licenses (key, max_nodes, active_nodes, expires_at, status)
          values (${generateLicenseKey()}, ${n}, ${n}, now() + interval '30 days', 'active') returning id`,
    ),
  );
  return rowsOf<{ id: string }>(
    await database.db.execute(
      sql`insert into nodes (license_id, fingerprint, last_seen_at)
          select ${license!.id}::uuid, 'fp-' || g, now() - interval '2 minutes' from generate_series(1, ${n}) g
          returning id`,
    ),
  ).map((r) => r.id);
}

/** The test database, with the statements sent through it counted (each with what `mark()` answered then). */
function countedDb(mark: () => number = () => 0) {
  const statements: number[] = [];
  const db = new Proxy(database.db, {
    get: (target, name, receiver) =>
      name === 'execute'
        ? (query: Parameters<Db['execute']>[0]) => {
            statements.push(mark());
            return target.execute(query);
          }
        : Reflect.get(target, name, receiver),
  });
  return { db, statements };
}

async function lastSeenAt(ids: string[]): Promise<number[]> {
  const rows = rowsOf<{ at: Date | string }>(
    await database.db.execute(
      sql`select last_seen_at as at from nodes where id = any(${`{${ids.join(',')}}`}::uuid[]) order by fingerprint`,
    ),
  );
  return rows.map((r) => new Date(r.at).getTime());
}

const later = (at: Date, ms: number) => new Date(at.getTime() + ms);

describe('the last-seen buffer’s flush', () => {
  it('writes rowsPerStatement rows a statement, with a turn of the event loop between statements', async () => {
    const ids = await nodes(250);
    // Statements as the flush sends them, each with the event loop turns counted before it.
    let turns = 0;
    const { db, statements } = countedDb(() => turns);
    const buffer = createLastSeenBuffer({ db, log: { warn: () => {} }, flushMs: 60_000, rowsPerStatement: 100 });
    const at = new Date();
    for (const id of ids) buffer.note(id, at);
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await buffer.flush();
    counting = false;
    expect(statements).toHaveLength(3);
    expect(statements[1]).toBeGreaterThan(statements[0]!);
    expect(statements[2]).toBeGreaterThan(statements[1]!);
    const written = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from nodes where id = any(${`{${ids.join(',')}}`}::uuid[])
                                    and last_seen_at = ${at.toISOString()}::timestamptz`),
    );
    expect(written[0]!.n).toBe(250);
    await buffer.close();
  });

  it('sends nothing for a node seen within a minute of the time it wrote for it, and writes it from a minute on', async () => {
    const ids = await nodes(3);
    const { db, statements } = countedDb();
    const buffer = createLastSeenBuffer({ db, log: { warn: () => {} }, flushMs: 60_000 });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    for (const id of ids) buffer.note(id, at);
    await buffer.flush();
    expect(statements).toHaveLength(1);

    // Within the minute: nothing buffered, so the flush sends no statement at all.
    for (const id of ids) buffer.note(id, later(at, 59_999));
    await buffer.flush();
    expect(statements).toHaveLength(1);
    expect(await lastSeenAt(ids)).toEqual([at.getTime(), at.getTime(), at.getTime()]);

    // A minute on, the node's time moves on.
    buffer.note(ids[0]!, later(at, 60_000));
    await buffer.flush();
    expect(statements).toHaveLength(2);
    expect(await lastSeenAt(ids)).toEqual([at.getTime() + 60_000, at.getTime(), at.getTime()]);
    await buffer.close();
  });

  it('learns a time another instance wrote from the statement that skipped it, and sends the node again only when due', async () => {
    const [id] = (await nodes(1)) as [string];
    const { db, statements } = countedDb();
    const buffer = createLastSeenBuffer({ db, log: { warn: () => {} }, flushMs: 60_000 });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    buffer.note(id, at);
    await buffer.flush();
    // Another instance writes the node a minute later.
    await database.db.execute(
      sql`update nodes set last_seen_at = ${later(at, 60_000).toISOString()}::timestamptz where id = ${id}::uuid`,
    );

    // 90 s on, this buffer sends it (it knows only its own write); the database keeps the newer time.
    buffer.note(id, later(at, 90_000));
    await buffer.flush();
    expect(statements).toHaveLength(2);
    expect(await lastSeenAt([id])).toEqual([at.getTime() + 60_000]);

    // It learnt that time: within a minute of it nothing is sent, a minute on it is written.
    buffer.note(id, later(at, 119_999));
    await buffer.flush();
    expect(statements).toHaveLength(2);
    buffer.note(id, later(at, 120_000));
    await buffer.flush();
    expect(statements).toHaveLength(3);
    expect(await lastSeenAt([id])).toEqual([at.getTime() + 120_000]);
    await buffer.close();
  });

  it('starts its memory again past its bound: a forgotten node is sent once more, and the database skips it', async () => {
    const ids = await nodes(3);
    const { db, statements } = countedDb();
    const buffer = createLastSeenBuffer({ db, log: { warn: () => {} }, flushMs: 60_000, maxRemembered: 2 });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    buffer.note(ids[0]!, at);
    buffer.note(ids[1]!, at);
    await buffer.flush();
    buffer.note(ids[2]!, at);
    await buffer.flush();
    expect(statements).toHaveLength(2);

    // The third node did not fit: the memory started again with it alone.
    buffer.note(ids[2]!, later(at, 1_000));
    await buffer.flush();
    expect(statements).toHaveLength(2);
    buffer.note(ids[0]!, later(at, 1_000));
    await buffer.flush();
    expect(statements).toHaveLength(3);
    expect(await lastSeenAt(ids)).toEqual([at.getTime(), at.getTime(), at.getTime()]);
    await buffer.close();
  });

  it('forgets a released node', async () => {
    const [id] = (await nodes(1)) as [string];
    const { db, statements } = countedDb();
    const buffer = createLastSeenBuffer({ db, log: { warn: () => {} }, flushMs: 60_000 });
    const at = new Date();
    buffer.note(id, at);
    await buffer.flush();
    buffer.forget(id);
    buffer.note(id, later(at, 1_000));
    await buffer.flush();
    expect(statements).toHaveLength(2);
    await buffer.close();
  });
});
