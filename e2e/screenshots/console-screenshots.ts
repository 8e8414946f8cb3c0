/**
 * Screenshots of every console page for looking at (never asserted on): sign-in, overview, the
 * customer page, each list, the audit log, staff, the search box open and an action dialog, at
 * 1280 and 390 px, light and dark. Starts its own server (the production builds: `npm run build`
 * first), makes a few customers through the portal's API, and writes PNGs to the folder given
 * (default .tmp/screenshots/console). Also prints any page whose body scrolls sideways.
 *
 *   node --import tsx e2e/screenshots/console-screenshots.ts [out-dir]
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium';
import { CONSOLE_OWNER, startPortal, type Portal } from '../portal-server';

const out = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../.tmp/screenshots/console'));
mkdirSync(out, { recursive: true });

/** The newest sign-in link e-mailed to `email` that was not in the outbox before (`seen`). */
async function linkFor(portal: Portal, email: string, seen: Set<string>): Promise<string> {
  const dir = path.join(portal.dataDir, 'outbox');
  const needle = email.toLowerCase().replace(/[^a-z0-9@._-]/g, '_');
  for (let i = 0; i < 600; i++) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.eml') && f.includes(needle) && !seen.has(f));
    } catch {
      // the outbox appears with its first e-mail
    }
    const newest = files.sort((a, b) => statSync(path.join(dir, b)).mtimeMs - statSync(path.join(dir, a)).mtimeMs)[0];
    if (newest) {
      const raw = readFileSync(path.join(dir, newest), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      const m = raw.match(/[?&]link=([A-Za-z0-9_-]{43})/);
      if (m?.[1]) return m[1];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail for ${email}`);
}

const outboxNow = (portal: Portal) => {
  try {
    return new Set(readdirSync(path.join(portal.dataDir, 'outbox')));
  } catch {
    return new Set<string>();
  }
};

async function ok(res: { status: () => number; text: () => Promise<string> }, what: string, ...expected: number[]) {
  if (!expected.includes(res.status())) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
}

/** A customer made through the portal's API: signed in, onboarded, optionally subscribed with active nodes. */
async function makeCustomer(
  portal: Portal,
  browser: Browser,
  c: { email: string; fname: string; lname: string; company?: string; nodes?: number; hosts?: string[] },
) {
  const ctx = await browser.newContext({ baseURL: portal.baseUrl });
  const req = ctx.request;
  const headers = { origin: portal.baseUrl };
  const seen = outboxNow(portal);
  await ok(await req.post('/api/auth/link', { data: { email: c.email }, headers }), 'link', 202);
  await ok(await req.get(`/api/auth/link/${await linkFor(portal, c.email, seen)}`), 'redeem', 200);
  await ok(
    await req.post('/api/users/onboarding', { data: { fname: c.fname, lname: c.lname, company: c.company }, headers }),
    'onboarding',
    200,
  );
  if (c.nodes) {
    const setup = await req.post('/api/billing/intents/setup', { headers });
    const { clientSecret } = (await setup.json()) as { clientSecret: string };
    await ok(
      await req.post('/api/billing/local/confirm-setup', {
        headers,
        data: { clientSecret, number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123' },
      }),
      'card',
      201,
    );
    const checkout = await req.post('/api/billing/intents/checkout', { headers, data: { interval: 'month', quantity: c.nodes } });
    await ok(checkout, 'checkout', 201);
    const { subscription } = (await checkout.json()) as { subscription: { licenseKey: string } };
    for (const [i, hostname] of (c.hosts ?? []).entries())
      await ok(
        await req.post(`/api/licenses/${subscription.licenseKey}/activate`, {
          data: { fingerprint: `${hostname}-${i}-4c4c4544-0042-3510-8052-b4c04f4e3732`, hostname },
        }),
        'activate',
        201,
      );
  }
  await ctx.close();
}

/** A console context signed in as the bootstrap owner. */
async function ownerContext(portal: Portal, browser: Browser, width: number, dark: boolean): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    baseURL: portal.consoleUrl,
    viewport: { width, height: width < 600 ? 844 : 800 },
    colorScheme: dark ? 'dark' : 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const headers = { origin: portal.consoleUrl };
  const seen = outboxNow(portal);
  await ok(await ctx.request.post('/api/console/auth/link', { data: { email: CONSOLE_OWNER }, headers }), 'staff link', 202);
  const id = await linkFor(portal, CONSOLE_OWNER, seen);
  await ok(await ctx.request.post(`/api/console/auth/link/${id}`, { headers }), 'staff redeem', 200);
  return ctx;
}

/** Nothing loading, no transition running. */
async function settled(page: Page) {
  for (let i = 0; i < 300; i++) {
    const busy = await page.evaluate(
      () =>
        document.querySelectorAll('[aria-busy="true"], main [aria-label^="Loading"]').length +
        document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
    );
    if (busy === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const overflowing: string[] = [];
async function shoot(page: Page, name: string) {
  await settled(page);
  const sideways = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = document.documentElement.scrollWidth - width;
    if (over <= 0) return null;
    // The elements that reach past the window while their parent does not: what to fix.
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= width + 1)
      .slice(0, 4)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 2).join('.')} (${Math.round(e.getBoundingClientRect().right)} px)`,
      );
    return `${over} px: ${culprits.join(', ')}`;
  });
  if (sideways) overflowing.push(`${name}: ${sideways}`);
  // A full-page picture from the top (a search result scrolls the customer page to its section).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
  // What the window shows first: the shell (fixed header and menu) as it really looks.
  await page.screenshot({ path: path.join(out, `${name}-window.png`) });
}

const portal = await startPortal();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  await makeCustomer(portal, browser, {
    email: 'grace.hopper@navy-systems.example',
    fname: 'Grace',
    lname: 'Hopper',
    company: 'Navy Systems Integration Laboratory',
    nodes: 5,
    hosts: ['pve-cluster-node-01.datacenter.navy-systems.example', 'pve-02', 'backup-host'],
  });
  await makeCustomer(portal, browser, {
    email: 'ada@analytical.example',
    fname: 'Ada',
    lname: 'Lovelace',
    nodes: 2,
    hosts: ['pve-ada'],
  });
  await makeCustomer(portal, browser, { email: 'alan@bletchley.example', fname: 'Alan', lname: 'Turing', nodes: 1 });
  await makeCustomer(portal, browser, { email: 'no-sub@example.example', fname: 'Edsger', lname: 'Dijkstra' });

  for (const width of [1280, 390])
    for (const dark of [false, true]) {
      const tag = `${width}-${dark ? 'dark' : 'light'}`;
      const anon = await browser.newContext({
        baseURL: portal.consoleUrl,
        viewport: { width, height: width < 600 ? 844 : 800 },
        colorScheme: dark ? 'dark' : 'light',
      });
      const signIn = await anon.newPage();
      await signIn.goto('/overview');
      await signIn.getByRole('heading', { name: 'Sign in to the vendor console' }).waitFor();
      await shoot(signIn, `sign-in-${tag}`);
      await anon.close();

      const ctx = await ownerContext(portal, browser, width, dark);
      const page = await ctx.newPage();
      await page.goto('/overview');
      await page.locator('.recharts-surface').first().waitFor();
      await shoot(page, `overview-${tag}`);
      for (const list of ['customers', 'subscriptions', 'licenses', 'invoices', 'audit', 'staff']) {
        await page.goto(`/${list}`);
        await page.getByRole('table').first().waitFor();
        await shoot(page, `${list}-${tag}`);
      }
      await page.goto('/overview');
      await page.getByRole('searchbox', { name: /Search customers/ }).fill('pve');
      await page.getByRole('option').first().waitFor();
      await shoot(page, `search-${tag}`);
      await page.getByRole('option', { name: /pve-cluster/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
      await shoot(page, `customer-${tag}`);
      for (const name of ['Subscriptions', 'Licenses', 'Nodes'])
        await page
          .getByRole('region', { name })
          .screenshot({ path: path.join(out, `customer-${name.toLowerCase()}-${tag}.png`) });
      await page
        .getByRole('button', { name: /Actions for license/ })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Extend…' }).click();
      await page.getByRole('dialog', { name: 'Extend license' }).waitFor();
      await shoot(page, `dialog-extend-${tag}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Extend license' }).waitFor({ state: 'hidden' });
      await page
        .getByRole('button', { name: /Actions for invoice/ })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Refund…' }).click();
      await page.getByRole('dialog', { name: 'Refund invoice' }).waitFor();
      await shoot(page, `dialog-refund-${tag}`);
      await page.keyboard.press('Escape');
      if (width < 600) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('dialog', { name: 'Side menu' }).waitFor();
        await shoot(page, `menu-${tag}`);
      }
      await ctx.close();
    }
  console.log(`screenshots in ${out}`);
  console.log(overflowing.length ? `body scrolls sideways:\n  ${overflowing.join('\n  ')}` : 'no page body scrolls sideways');
} finally {
  await browser.close();
  await portal.stop();
}
