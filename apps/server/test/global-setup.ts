import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../../scripts/build-server.mjs';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client';

/**
 * A new PGlite runs initdb (seconds); build one migrated instance once and let each test file
 * clone it from a dump instead. On PostgreSQL (TEST_DATABASE_URL), likewise: one migrated database
 * is the template each test file's database is created from (a copy, about a tenth of the time of
 * running every migration again in each file). The server bundle of this run (vitest.config.ts), which the system
 * tests start through `npm start`, is built once here too, before any of them can start it.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar');
  const url = process.env.TEST_DATABASE_URL;
  let pgTemplate = '';
  if (url) pgTemplate = await migratedTemplate(url);
  else {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const db = await openDatabase({ pglite });
    // Uncompressed: each clone then skips a gunzip (about a quarter of its CPU time) for 40 MB read from the page cache.
    const dump = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', pgTemplate);
  const bundle = project.config.env.SERVER_BUNDLE;
  // A source that does not bundle fails the tests that start the bundle, not every server test.
  if (bundle) await buildServer(bundle).catch((err: unknown) => console.warn(`The server did not bundle: ${String(err)}`));
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url && pgTemplate) await onServer(url, (c) => c.query(`drop database if exists ${pgTemplate} with (force)`));
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  };
}

/** Runs `fn` with a client of the PostgreSQL server at `url`. */
async function onServer(url: string, fn: (c: pg.Client) => Promise<unknown>) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

/** A new database on the server at `url` with every migration run, closed again (a template has no sessions). */
async function migratedTemplate(url: string): Promise<string> {
  const name = `portal_template_${randomBytes(6).toString('hex')}`;
  await onServer(url, (c) => c.query(`create database ${name}`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: target.toString(), poolSize: 1 });
  await db.close();
  return name;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The migrated PostgreSQL database each test file's database copies ('' on PGlite). */
    pgTemplate: string;
  }
}
