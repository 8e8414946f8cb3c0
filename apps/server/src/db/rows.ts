import type { SQL } from 'drizzle-orm';
import type { Tx } from './client';

/** The rows of a raw statement: both drivers (PGlite and node-postgres) answer `{ rows }`. */
export async function rowsOf<T>(db: Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
