import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR, openDatabase, PGLITE_EXTENSIONS, type Database } from '../src/db/client';

/** The migrations folder as it was when `lastTag` was the newest migration. */
function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

export type OlderDatabase = {
  /** Runs SQL on the database as it is (before the upgrade). */
  run: (q: string) => Promise<void>;
  /** Opens it as the server does, which applies every later migration. */
  upgrade: () => Promise<Database>;
  close: () => Promise<void>;
};

/**
 * A database migrated up to `lastTag` only, so a test can write rows in the old shape and see a
 * later migration keep them. PostgreSQL when TEST_DATABASE_URL is set, else a new PGlite.
 */
export async function databaseMigratedUpTo(lastTag: string): Promise<OlderDatabase> {
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  const folder = migrationsUpTo(lastTag);
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
      close,
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
  let open = true;
  cleanups.push(async () => {
    if (open) await client.end();
  });
  return {
    run: async (q) => {
      await client.query(q);
    },
    upgrade: async () => {
      open = false;
      await client.end();
      const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 2 });
      cleanups.push(() => database.close());
      return database;
    },
    close,
  };
}
