import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Tx } from './client';

/** The rows of a raw statement: both drivers (PGlite and node-postgres) answer `{ rows }`. */
export async function rowsOf<T>(db: Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/** The types drizzle's node-postgres `execute` leaves as text: dates, timestamps, intervals and their arrays. */
const AS_TEXT = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
const types = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    AS_TEXT.has(id) ? (value: string) => value : pg.types.getTypeParser(id, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The rows of a raw statement that runs often with one text and changing values (the console's
 * search): on PostgreSQL a named prepared statement, parsed and analysed once per pooled connection
 * and planned for each call's values (custom plans, so LIKE prefixes still use their indexes).
 * PostgreSQL plans a large statement (the search's 19 branches) several times faster this way than
 * as the unnamed statement of every other query (ADR 122). Its name is its text's hash, so one name
 * never stands for two texts. Inside a transaction, and on PGlite (one connection, in process), it
 * runs as `rowsOf` does. Rows come as drizzle's `execute` gives them (dates, timestamps and
 * intervals as text).
 */
export async function preparedRowsOf<T>(db: Tx, query: SQL): Promise<T[]> {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return rowsOf<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `raw_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return (await pool.query<T & pg.QueryResultRow>({ name, text, values: params, types })).rows;
}
