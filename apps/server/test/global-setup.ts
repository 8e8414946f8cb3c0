import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../../scripts/build-server.mjs';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/client';

/**
 * A new PGlite runs initdb (seconds); build one migrated instance once and let each test file
 * clone it from a dump instead. The server bundle of this run (vitest.config.ts), which the system
 * tests start through `npm start`, is built once here too, before any of them can start it.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar');
  if (!process.env.TEST_DATABASE_URL) {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const db = await openDatabase({ pglite });
    // Uncompressed: each clone then skips a gunzip (about a quarter of its CPU time) for 40 MB read from the page cache.
    const dump = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  const bundle = project.config.env.SERVER_BUNDLE;
  // A source that does not bundle fails the tests that start the bundle, not every server test.
  if (bundle) await buildServer(bundle).catch((err: unknown) => console.warn(`The server did not bundle: ${String(err)}`));
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
