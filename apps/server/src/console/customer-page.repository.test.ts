import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, type ConsoleFixtures } from '../../test/console/fixtures';
import { customerPageRepository } from './customer-page.repository';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  fx = await consoleFixtures(t);
});
afterAll(async () => t.close());

describe('customerPageRepository.nodes', () => {
  it('answers the customer’s most recently seen nodes across all their licenses, newest first', async () => {
    const keys = [await fx.license(), await fx.license(), await fx.license()];
    // After the fixture's own node was last seen (now).
    const base = t.clock.now().getTime() + 86_400_000;
    // Two licenses' nodes seen in turn (one even minutes, the other odd ones), and a third license
    // with a few seen last of all: the newest 200 come from all three.
    const seen = (minute: number) => new Date(base + minute * 60_000).toISOString();
    const add = (key: string, fingerprint: string, at: string) =>
      t.db.execute(sql`insert into nodes (license_id, fingerprint, hostname, last_seen_at)
                       select id, ${fingerprint}, null, ${at}::timestamptz from licenses where key = ${key}`);
    for (let m = 0; m < 300; m++) await add(keys[m % 2]!, `turn-${m}`, seen(m));
    for (let m = 0; m < 5; m++) await add(keys[2]!, `last-${m}`, seen(1000 + m));

    const expected = await rowsOf<{ id: string }>(
      t.db,
      sql`select n.id from nodes n join licenses l on l.id = n.license_id
           where l.user_id = ${fx.userId} order by n.last_seen_at desc limit 200`,
    );
    const got = await customerPageRepository.nodes(t.db, fx.userId, 200);
    expect(got).toHaveLength(200);
    expect(got.map((r) => r.node.id)).toEqual(expected.map((r) => r.id));
    expect(got[0]).toMatchObject({ key: keys[2], node: { fingerprint: 'last-4', hostname: null } });
    expect(got[0]!.node.lastSeenAt).toEqual(new Date(seen(1004)));
    expect(got[5]!.node.fingerprint).toBe('turn-299');
    expect(got[199]!.node.fingerprint).toBe('turn-105');
    expect(new Set(got.map((r) => r.key))).toEqual(new Set(keys));
  });
});
