import type { Page, Request } from 'playwright-core';
import { describe, expect, it, screenshot, uniqueEmail, type Browser } from './fixtures';

/** The side menu (pages may link to the same places, e.g. the dashboard's 'Billing'). */
const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Side menu' });

let b: Browser;

describe('signed-in shell on a desktop', () => {
  it.beforeEach(async ({ customer }) => {
    b = await customer({ email: uniqueEmail('shell'), fname: 'Ada', lname: 'Lovelace', viewport: { width: 1200, height: 800 } });
    await b.page.goto('/app/dashboard');
    await b.page.getByRole('navigation').first().waitFor();
  });

  it('shows the menu groups and entries, and no menu toggle at 1200 px', async () => {
    const { page } = b;
    for (const name of ['Home', 'Licenses', 'Support', 'Download ISO', 'Billing', 'Profile']) {
      expect(await sideMenu(page).getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }
    expect(await page.getByRole('button', { name: /open menu|close menu/i }).isVisible()).toBe(false);
  });

  it("shows Access Control as 'Coming soon' and it cannot be followed", async () => {
    const { page } = b;
    const entry = page.getByText('Access Control');
    expect(await entry.isVisible()).toBe(true);
    expect(await page.getByText('Coming soon').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /access control/i }).count()).toBe(0);
    await entry.click({ force: true });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/app/dashboard');
  });

  it('highlights the active entry and moves between pages', async () => {
    const { page } = b;
    await sideMenu(page).getByRole('link', { name: 'Licenses', exact: true }).click();
    await page.waitForURL('**/app/licenses');
    await expect
      .poll(() => sideMenu(page).getByRole('link', { name: 'Licenses', exact: true }).getAttribute('aria-current'))
      .toBe('page');
    expect(await sideMenu(page).getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current')).toBeNull();
  });

  it('shows the avatar initials, the name and the e-mail at the bottom of the menu', async () => {
    const { page } = b;
    expect(await page.getByText('AL', { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByText('Ada Lovelace').first().isVisible()).toBe(true);
  });

  it('links the documentation in a new tab from the top bar', async () => {
    const { page } = b;
    const docs = page.getByRole('link', { name: /documentation/i });
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('href')).toBe('https://docs.example.com');
    await docs.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Documentation');
  });

  it('renders every signed-in page with a title (screenshots)', async () => {
    const { page } = b;
    for (const [p, title] of [
      ['/app/dashboard', /welcome|dashboard|home/i],
      ['/app/licenses', /licenses/i],
      ['/app/support', /support/i],
      ['/app/download-iso', /download/i],
      ['/app/billing', /billing/i],
      ['/app/profile', /profile/i],
    ] as const) {
      await page.goto(p);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await screenshot(page, `shell${p.replaceAll('/', '-')}-1200`);
    }
  });
});

describe('signed-in shell on a phone', () => {
  it.beforeEach(async ({ customer }) => {
    b = await customer({ email: uniqueEmail('mobile'), fname: 'Mo', lname: 'Bile', viewport: { width: 800, height: 900 } });
    await b.page.goto('/app/dashboard');
  });

  it('toggles the side menu with a button whose icon shows open or closed', async () => {
    const { page } = b;
    const toggle = page.getByRole('button', { name: /open menu/i });
    await toggle.waitFor();
    expect(await sideMenu(page).getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(false);
    // The closed drawer's content is not laid out at all (docs/decisions/135), and is once open.
    const contentVisibility = () =>
      page.evaluate(() => getComputedStyle(document.getElementById('portal-side-menu')!).contentVisibility);
    expect(await contentVisibility()).toBe('hidden');
    await toggle.click();
    await page.getByRole('button', { name: /close menu/i }).waitFor();
    await expect.poll(() => sideMenu(page).getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(true);
    expect(await contentVisibility()).toBe('visible');
    await screenshot(page, 'shell-mobile-open-800');
    await page.getByRole('button', { name: /close menu/i }).click();
    await expect.poll(() => sideMenu(page).getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(false);
    await expect.poll(contentVisibility).toBe('hidden');
  });

  it('closes the menu on a click outside it', async () => {
    const { page } = b;
    await page.getByRole('button', { name: /open menu/i }).click();
    await expect.poll(() => sideMenu(page).getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(true);
    await page.mouse.click(780, 600);
    await expect.poll(() => sideMenu(page).getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(false);
    await page.getByRole('button', { name: /open menu/i }).waitFor();
  });

  it('shows the avatar initials, name and e-mail inside the opened drawer', async () => {
    const { page } = b;
    await page.getByRole('button', { name: /open menu/i }).click();
    await expect.poll(() => page.getByText('Mo Bile').first().isVisible()).toBe(true);
    expect(await page.getByText('MB', { exact: true }).first().isVisible()).toBe(true);
  });

  it('fits a 390 px phone (screenshot)', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'shell-dashboard-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
  });
});

describe('signed-in shell on a cold load', () => {
  it("fetches the shell's code and styles beside the first script, each file once, and the sign-in page does not", async ({
    customer,
  }) => {
    const { page } = await customer({ email: uniqueEmail('cold') });
    const html = async (path: string) => (await page.request.get(path)).text();
    const preloads = (doc: string) =>
      [...doc.matchAll(/<link rel="(?:modulepreload|preload" as="style)" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
    const shell = preloads(await html('/app/licenses'));
    expect(
      shell.filter((f) => /\/assets\/app-layout-[\w-]+\.(js|css)$/.test(f)),
      "the shell's chunk and styles",
    ).toHaveLength(2);
    expect(preloads(await html('/login'))).toEqual([]);
    // The first script and the shell's code carry V8's compile hint on their first line (ADR 131).
    const firstScript = /<script type="module" crossorigin src="([^"]+)">/.exec(await html('/app/licenses'))?.[1];
    const shellScript = shell.find((f) => /\/assets\/app-layout-[\w-]+\.js$/.test(f));
    for (const file of [firstScript, shellScript]) {
      expect((await (await page.request.get(file ?? '/missing')).text()).split('\n')[0], file).toBe(
        '//# allFunctionsCalledOnLoad',
      );
    }

    const fetched: string[] = [];
    page.on('request', (r) => {
      if (['script', 'stylesheet'].includes(r.resourceType())) fetched.push(new URL(r.url()).pathname);
    });
    const cdp = await page.context().newCDPSession(page);
    const coldLoad = async (path: string, ready: () => Promise<unknown>) => {
      await cdp.send('Network.clearBrowserCache');
      fetched.length = 0;
      await page.goto(path);
      await ready();
      return [...fetched];
    };
    // Without the preloads (the sign-in page's HTML, which sends a signed-in customer on to the
    // page of ?to=), the shell loads its own code: every preloaded file is among it.
    const licenses = () => page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    const own = await coldLoad('/login?to=%2Fapp%2Flicenses', licenses);
    for (const file of shell) expect(own, file).toContain(file);
    // With them, no script or stylesheet is fetched twice (a preload that the page's own request
    // did not match would be).
    const preloaded = await coldLoad('/app/licenses', licenses);
    expect(preloaded.length, preloaded.join(' ')).toBe(new Set(preloaded).size);
  });

  it("loads each page's own code in one round once the first script has run (ADR 132)", async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('rounds') });
    const doc = await (await page.request.get('/app/dashboard')).text();
    // What the page's HTML names: the first script and the shell's preloads.
    const named = new Set([...doc.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!));
    // Every signed-in page gets these: no page's form code or a feature's own chunk among them.
    expect([...named].filter((f) => /\/assets\/(forms|billing|licenses|profile)-[\w-]{8}\.js$/.test(f))).toEqual([]);
    const cdp = await page.context().newCDPSession(page);
    for (const [path, heading] of [
      ['/app/dashboard', /^Welcome/],
      ['/app/licenses', 'Licenses'],
      ['/app/billing', 'Billing'],
      ['/app/support', 'Support'],
    ] as const) {
      const later: string[] = [];
      const onRequest = (r: Request) => {
        const file = new URL(r.url()).pathname;
        if (r.resourceType() === 'script' && !named.has(file)) later.push(file.replace(/-[\w-]{8}\.js$/, ''));
      };
      page.on('request', onRequest);
      await cdp.send('Network.clearBrowserCache');
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      page.off('request', onRequest);
      // The page's own chunk, the code its feature's dialogs share with it, and the form code on
      // pages with a form: not one file per shared component, which a phone fetches six at a time,
      // in rounds (the dashboard fetched 8 files, billing 11).
      expect(later.length, `${path}: ${later.join(' ')}`).toBeLessThanOrEqual(3);
      expect(
        later.filter((f) => /-page$/.test(f)),
        `${path}: ${later.join(' ')}`,
      ).toHaveLength(1);
    }
  });

  it("opens a signed-in page with the answers of its first reads inside it, and reads another page's from the API (ADR 139)", async ({
    customer,
  }) => {
    const { page } = await customer({ email: uniqueEmail('answers'), subscription: 2 });
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) asked.push(`${r.method()} ${url.pathname}${url.search}`);
    });
    await page.goto('/app/billing');
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    // The subscription and its invoice came with the page: no skeleton, no round trip.
    await page.getByRole('table', { name: 'Invoices' }).getByRole('link', { name: /^View/ }).waitFor();
    expect(asked, asked.join(' ')).toEqual([]);

    // Later reads go to the API: another page's own reads.
    await sideMenu(page).getByRole('link', { name: 'Support', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Support' }).waitFor();
    await expect.poll(() => asked).toContain('GET /api/products/support');
  });
});
