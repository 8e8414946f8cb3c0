import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureWebBuild, freePort, root, round, startPortal } from './support';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Gzipped JS that a route really loads (every script the browser fetched), from the production build. */
export async function webBench() {
  ensureWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-web-'));
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-bench-chromium-'));
  const portal = await startPortal({ DATA_DIR: dataDir, PORT: String(await freePort()) });
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const scripts = new Set<string>();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${portal.url}/login`, { waitUntil: 'networkidle' });
    const gz = [...scripts].reduce((n, p) => n + gzipSync(readFileSync(path.join(root, 'apps/web/dist', p))).length, 0);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
    });
    return {
      '/login gzipped JS (KB)': { value: round(gz / 1024, 1), target: '<= 150' },
      '/login scripts loaded': { value: scripts.size, target: '' },
      '/login DOMContentLoaded (ms)': { value: round(timing.domContentLoaded), target: '' },
    };
  } finally {
    await context.close();
    await portal.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
