import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** SHA-256 of release files, computed once per (path, size, mtime) and kept. */
export const fileDigests = pgTable('file_digests', {
  path: text('path').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  mtimeMs: bigint('mtime_ms', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});
