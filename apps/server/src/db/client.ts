import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverRoot } from '../lib/server-root';
import { releasingTransactions } from './pg-transactions';
import { pgliteNotifications, pgNotifications, type Notifications } from './notifications';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The one database type services see, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;
/**
 * The caller's own writes that belong to an operation (the staff audit row of a console action):
 * the operation runs them inside its transaction, after its own writes, so both commit or neither.
 */
export type WithinTx = (tx: Tx) => Promise<void>;

/**
 * The extensions every PGlite of this schema loads (the migrations create them): whoever makes a
 * PGlite for openDatabase (tests, clones of a dump) passes these.
 */
export const PGLITE_EXTENSIONS = { pg_trgm } satisfies NonNullable<PGliteOptions['extensions']>;

export const MIGRATIONS_DIR = path.join(serverRoot(), 'drizzle');

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  ping: () => Promise<void>;
  /** LISTEN/NOTIFY; on PostgreSQL a connection of its own, opened on the first subscription. */
  notifications: Notifications;
};

export type OpenOptions = {
  databaseUrl?: string;
  dataDir?: string;
  pglite?: PGlite;
  poolSize?: number;
  /**
   * How long one waits for a free connection, and then how long a query may take, before it fails (a
   * 503 for requests): DATABASE_TIMEOUT_MS, 5 s unless given.
   */
  timeoutMs?: number;
  /** Where a lost notification connection is reported (the server's logger). */
  log?: { warn: (details: Record<string, unknown>, message: string) => void };
};

/** Opens PostgreSQL when a URL is given, else PGlite in `$DATA_DIR/db`, and applies migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const timeoutMs = opts.timeoutMs ?? 5_000;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: timeoutMs,
      idleTimeoutMillis: 30_000,
      // A database host that stops answering must not hang requests: fail them (503) instead.
      query_timeout: timeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // A lost connection must not crash the process: queries fail with 503 until it is back.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    releasingTransactions(db, pool);
    // Migrations on a connection of their own without the query timeout: waiting for another
    // instance's migration (several may start at once; one migrates, the others wait) can take longer.
    const client = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(72541)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('select pg_advisory_unlock(72541)').catch(() => {});
      await client.end().catch(() => {});
    }
    const notifications = pgNotifications({ connectionString: opts.databaseUrl, ...(opts.log ? { log: opts.log } : {}) });
    return {
      db,
      kind: 'postgres',
      notifications,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
      ping: async () => {
        await db.execute(sql`select 1`);
      },
    };
  }
  let client = opts.pglite;
  if (!client) {
    const dir = path.join(opts.dataDir ?? './data', 'db');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  const pglite = client;
  const notifications = pgliteNotifications(pglite);
  return {
    db,
    kind: 'pglite',
    notifications,
    close: async () => {
      await notifications.close();
      await pglite.close();
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
  };
}
