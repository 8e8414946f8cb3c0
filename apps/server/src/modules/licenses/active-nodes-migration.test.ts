import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase, PGLITE_EXTENSIONS, type Database } from '../../db/client';
import { licenses } from '../../db/schema/index';

/** The migrations folder as it was before licenses.active_nodes: 0000_init only. */
function migrationsBeforeActiveNodes(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  journal.entries = journal.entries.filter((e) => e.tag === '0000_init');
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  copyFileSync(path.join(MIGRATIONS_DIR, '0000_init.sql'), path.join(dir, '0000_init.sql'));
  return dir;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * A database migrated up to `0000_init`; `upgrade` then opens it as the server does (every
 * migration applied). PostgreSQL when TEST_DATABASE_URL is set, else a new PGlite.
 */
async function databaseBeforeActiveNodes(): Promise<{ run: (q: string) => Promise<void>; upgrade: () => Promise<Database> }> {
  const folder = migrationsBeforeActiveNodes();
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
    return {
      run: async (q) => {
        await client.exec(q);
      },
      upgrade: async () => {
        const database = await openDatabase({ pglite: client });
        cleanups.push(() => database.close());
        return database;
      },
    };
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  await migratePg(drizzlePg(client), { migrationsFolder: folder });
  return {
    run: async (q) => {
      await client.query(q);
    },
    upgrade: async () => {
      await client.end();
      const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 2 });
      cleanups.push(() => database.close());
      return database;
    },
  };
}

it('fills licenses.active_nodes with each license’s node count when it adds the column', { timeout: 120_000 }, async () => {
  const before = await databaseBeforeActiveNodes();
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
