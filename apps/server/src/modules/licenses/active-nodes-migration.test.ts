import { asc } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { licenses } from '../../db/schema/index';
import { databaseMigratedUpTo, type OlderDatabase } from '../../../test/migrations';

let before: OlderDatabase | undefined;
afterAll(async () => {
  await before?.close();
});

it('fills licenses.active_nodes with each license’s node count when it adds the column', async () => {
  // Before licenses.active_nodes: 0000_init only.
  before = await databaseMigratedUpTo('0000_init');
  const license = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  await before.run(`
    insert into licenses (id, key, max_nodes, expires_at) values
      ('${license(1)}', 'KEY-NONE', 3, now() + interval '30 days'),
      ('${license(2)}', 'KEY-TWO', 3, now() + interval '30 days'),
      ('${license(3)}', 'KEY-FIVE', 5, now() - interval '1 day');
    insert into nodes (license_id, fingerprint)
      select '${license(2)}'::uuid, 'two-' || g from generate_series(1, 2) g
      union all select '${license(3)}'::uuid, 'five-' || g from generate_series(1, 5) g;
  `);
  const database = await before.upgrade();
  const rows = await database.db
    .select({ key: licenses.key, activeNodes: licenses.activeNodes })
    .from(licenses)
    .orderBy(asc(licenses.key));
  expect(rows).toEqual([
    { key: 'KEY-FIVE', activeNodes: 5 },
    { key: 'KEY-NONE', activeNodes: 0 },
    { key: 'KEY-TWO', activeNodes: 2 },
  ]);
});
