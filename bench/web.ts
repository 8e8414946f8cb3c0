import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { ensureWebBuild, freePort, root, round, startPortal } from './support';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Gzipped size of every script the page fetched, read from the production build. */
function gzippedScripts(scripts: Set<string>): number {
  return [...scripts].reduce((n, p) => n + gzipSync(readFileSync(path.join(root, 'apps/web/dist', p))).length, 0);
}

/** Loads `url` and answers its scripts, LCP and total blocking time (long tasks over 50 ms). */
async function measure(page: Page, url: string, ready: () => Promise<unknown>) {
  const scripts = new Set<string>();
  const onResponse = (r: { url(): string; request(): { resourceType(): string } }) => {
    if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  await ready();
  const timing = await page.evaluate(
    () =>
      new Promise<{ lcp: number; tbt: number }>((resolve) => {
        let lcp = 0;
        let tbt = 0;
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) lcp = Math.max(lcp, e.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) tbt += Math.max(0, e.duration - 50);
        }).observe({ type: 'longtask', buffered: true });
        setTimeout(() => resolve({ lcp, tbt }), 500);
      }),
  );
  page.off('response', onResponse);
  return { gz: gzippedScripts(scripts), scripts: scripts.size, ...timing };
}

/** Route budgets from the production build and load timings in headless Chromium. */
export async function webBench() {
  ensureWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-web-'));
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-bench-chromium-'));
  const portal = await startPortal({ DATA_DIR: dataDir, PORT: String(await freePort()), RATE_LIMIT_AUTH: '0', RATE_LIMIT_LINK_PER_ADDRESS: '0' });
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const login = await measure(page, `${portal.url}/login`, () => page.getByLabel(/e-?mail/i).waitFor());

    // Sign in through the API (the link from the outbox .eml), then load the signed-in shell cold.
    const email = 'bench@acme.example';
    await context.request.post(`${portal.url}/api/auth/link`, { data: { email }, headers: { origin: portal.url } });
    const outbox = path.join(dataDir, 'outbox');
    let secret: string | undefined;
    for (let i = 0; i < 50 && !secret; i++) {
      const file = readdirSync(outbox, { withFileTypes: true }).find((f) => f.name.endsWith('.eml'));
      // Quoted-printable: soft line breaks and escapes (the link's `=` is written `=3D`).
      const raw = file
        ? readFileSync(path.join(outbox, file.name), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        : '';
      secret = raw.match(/link=([A-Za-z0-9_-]{43})/)?.[1];
      if (!secret) await new Promise((r) => setTimeout(r, 100));
    }
    const redeemed = await context.request.get(`${portal.url}/api/auth/link/${secret}`);
    // Without a session the page below would be the sign-in page, measured under the shell's name.
    if (!redeemed.ok()) throw new Error(`bench sign-in failed: ${redeemed.status()} ${await redeemed.text()}`);
    await context.request.post(`${portal.url}/api/users/onboarding`, { data: { fname: 'Bench', lname: 'User' }, headers: { origin: portal.url } });
    const fresh = await context.newPage();
    const shell = await measure(fresh, `${portal.url}/app/dashboard`, () => fresh.getByRole('heading', { level: 1 }).waitFor());

    return {
      '/login gzipped JS (KB)': { value: round(login.gz / 1024, 1), target: '<= 150' },
      '/login LCP (ms)': { value: round(login.lcp), target: '' },
      '/login total blocking time (ms)': { value: round(login.tbt), target: '' },
      '/app/dashboard gzipped JS (KB)': { value: round(shell.gz / 1024, 1), target: '<= 250' },
      '/app/dashboard LCP (ms)': { value: round(shell.lcp), target: '' },
      '/app/dashboard total blocking time (ms)': { value: round(shell.tbt), target: '' },
    };
  } finally {
    await context.close();
    await portal.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
