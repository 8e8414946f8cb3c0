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

describe('the last-seen buffer’s flush', () => {
  it('writes rowsPerStatement rows a statement, with a turn of the event loop between statements', async () => {
    const ids = await nodes(250);
    // Statements as the flush sends them, each with the event loop turns counted before it.
    const statements: number[] = [];
    let turns = 0;
    const db = new Proxy(database.db, {
      get: (target, name, receiver) =>
        name === 'execute'
          ? (query: Parameters<Db['execute']>[0]) => {
              statements.push(turns);
              return target.execute(query);
            }
          : Reflect.get(target, name, receiver),
    });
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
});
