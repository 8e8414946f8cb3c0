import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPortal } from './portal-server';

const root = path.resolve(import.meta.dirname, '..');

/** Starts the real server (production builds of the web app and the console, embedded defaults) once for all browser tests. */
export default async function setup(project: TestProject) {
  for (const app of ['web', 'console'])
    if (!existsSync(path.join(root, `apps/${app}/dist/index.html`))) throw new Error(`Build the ${app} app first: npm run build`);
  if (!existsSync('/usr/bin/chromium')) throw new Error('Browser tests need Debian chromium: apt-get install -y chromium');
  const portal = await startPortal();
  project.provide('baseUrl', portal.baseUrl);
  project.provide('dataDir', portal.dataDir);
  project.provide('consoleUrl', portal.consoleUrl);
  return portal.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    consoleUrl: string;
  }
}
