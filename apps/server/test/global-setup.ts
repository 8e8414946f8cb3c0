import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

/**
 * A new PGlite runs initdb (seconds); build one migrated instance once and let each test file
 * clone it from a dump instead.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar.gz');
  if (!process.env.TEST_DATABASE_URL) {
    const pglite = new PGlite();
    const db = await openDatabase({ pglite });
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
