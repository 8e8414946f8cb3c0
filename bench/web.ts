import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page, type Response } from 'playwright-core';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { lighthouseBench, signInSecret } from './lighthouse';
import { ensureWebBuild, freePort, round, startPortal } from './support';

/** Loads `url` and answers its scripts, LCP and total blocking time (long tasks over 50 ms). */
async function measure(page: Page, url: string, ready: () => Promise<unknown>) {
  // Bytes as delivered (the encoded body: Brotli or gzip when the server compressed it).
  const delivered = { js: 0, css: 0, scripts: 0, sizes: [] as Promise<void>[] };
  const onResponse = (r: Response) => {
    const type = r.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    if (type === 'script') delivered.scripts += 1;
    delivered.sizes.push(
      r
        .finished()
        .then(() => r.request().sizes())
        .then(({ responseBodySize }) => {
          delivered[type === 'script' ? 'js' : 'css'] += responseBodySize;
        }),
    );
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  await ready();
  await Promise.all(delivered.sizes);
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
  return { js: delivered.js, css: delivered.css, scripts: delivered.scripts, ...timing };
}

/** Route budgets from the production build and load timings in headless Chromium. */
export async function webBench() {
  ensureWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-web-'));
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-bench-chromium-'));
  const portal = await startPortal({
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_LINK_PER_ADDRESS: '0',
  });
  const context = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const login = await measure(page, `${portal.url}/login`, () => page.getByLabel(/e-?mail/i).waitFor());

    // Sign in through the API (the link from the outbox .eml), then load the signed-in shell cold.
    const email = 'bench@acme.example';
    await context.request.post(`${portal.url}/api/auth/link`, { data: { email }, headers: { origin: portal.url } });
    const secret = await signInSecret(dataDir, email);
    const redeemed = await context.request.get(`${portal.url}/api/auth/link/${secret}`);
    // Without a session the page below would be the sign-in page, measured under the shell's name.
    if (!redeemed.ok()) throw new Error(`bench sign-in failed: ${redeemed.status()} ${await redeemed.text()}`);
    await context.request.post(`${portal.url}/api/users/onboarding`, {
      data: { fname: 'Bench', lname: 'User' },
      headers: { origin: portal.url },
    });
    const fresh = await context.newPage();
    const cdp = await context.newCDPSession(fresh);
    // Each cold: the sign-in page above filled the HTTP cache with the shared code.
    const cold = async (pagePath: string) => {
      await cdp.send('Network.clearBrowserCache');
      return measure(fresh, `${portal.url}${pagePath}`, () => fresh.getByRole('heading', { level: 1 }).waitFor());
    };
    const shell = await cold('/app/dashboard');
    const billing = await cold('/app/billing');
    const licenses = await cold('/app/licenses');

    const kb = (n: number) => round(n / 1024, 1);
    const timings = {
      '/login JS delivered, compressed (KB)': { value: kb(login.js), target: '<= 150' },
      '/login CSS delivered, compressed (KB)': { value: kb(login.css), target: '' },
      '/login LCP (ms)': { value: round(login.lcp), target: '' },
      '/login total blocking time (ms)': { value: round(login.tbt), target: '' },
      '/app/dashboard JS delivered, compressed (KB)': { value: kb(shell.js), target: '<= 250' },
      '/app/dashboard CSS delivered, compressed (KB)': { value: kb(shell.css), target: '' },
      '/app/dashboard LCP (ms)': { value: round(shell.lcp), target: '' },
      '/app/dashboard total blocking time (ms)': { value: round(shell.tbt), target: '' },
      '/app/billing JS delivered, compressed (KB)': { value: kb(billing.js), target: '<= 250' },
      '/app/licenses JS delivered, compressed (KB)': { value: kb(licenses.js), target: '<= 250' },
    };
    await context.close();
    return { ...timings, ...(await lighthouseBench(portal.url, dataDir)) };
  } finally {
    await context.close();
    await portal.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
