import type { Page } from 'playwright-core';
import { describe, expect, it, signInByApi, uniqueEmail, withoutFirstAnswers, type Browser } from './fixtures';

/** The side menu (pages may link to the same places). */
const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Side menu' });
const licensesChunk = /\/assets\/licenses-page-[\w-]+\.js$/;

let b: Browser;

describe('a page whose code fails to download', () => {
  it.beforeEach(async ({ customer }) => {
    b = await customer({ email: uniqueEmail('chunk') });
    await b.page.goto('/app/dashboard');
    await b.page.getByRole('heading', { level: 1 }).waitFor();
  });

  it('shows the portal’s error screen, and Try again downloads the code again and shows the page', async () => {
    const { page } = b;
    // The network drops while the page's code downloads (its preload and its import), then is back.
    let offline = true;
    let failures = 0;
    await page.route(licensesChunk, async (route) => {
      if (!offline) return route.continue();
      failures += 1;
      return route.abort('internetdisconnected');
    });
    await sideMenu(page).getByRole('link', { name: 'Licenses', exact: true }).click();
    const heading = page.getByRole('heading', { name: 'This page could not be loaded' });
    await heading.waitFor();
    expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
    expect(failures).toBeGreaterThan(0);

    offline = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    expect(await heading.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/app/licenses');
  });

  it('reloads once when a new deploy replaced the code, and not again if the page still fails', async () => {
    const { page } = b;
    // The chunk is gone (the new build has other names) and index.html names another entry script.
    await page.route(licensesChunk, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.route(
      (url) => url.pathname === '/',
      (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><script type="module" crossorigin src="/assets/index-NewBuild1.js"></script>',
        }),
    );
    let documentLoads = 0;
    page.on('load', () => {
      documentLoads += 1;
    });
    await sideMenu(page).getByRole('link', { name: 'Licenses', exact: true }).click();
    await expect.poll(() => documentLoads).toBe(1);
    // After the reload the page still cannot load: the error screen, and no reload loop.
    await page.getByRole('heading', { name: 'This page could not be loaded' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('portal-reloaded-for-build'))).toBe('/assets/index-NewBuild1.js');
    // The error screen's own deploy check has answered (same entry as the flag): still one load.
    await page.waitForLoadState('networkidle');
    expect(documentLoads).toBe(1);
  });
});

describe('the session check without an answer', () => {
  it.beforeEach(async ({ browser }) => {
    b = await browser();
  });

  it('says the portal could not be reached instead of sending a signed-in user to sign in, and recovers', async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('unreachable'), { fname: 'Grace', lname: 'Hopper' });
    let failing = true;
    await page.route(/\/api\/auth\/session(\?|$)/, (route) =>
      failing
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' }),
          })
        : route.continue(),
    );
    await withoutFirstAnswers(page);
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { name: 'The portal could not be reached' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/dashboard');
    expect(await page.getByRole('button', { name: 'Send sign-in link' }).count()).toBe(0);

    failing = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: /Grace/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/dashboard');
  });
});

describe('the session check of a visitor without a session', () => {
  it.beforeEach(async ({ browser }) => {
    b = await browser();
  });

  it('logs nothing as an error in the console on /login', async () => {
    const { page } = b;
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Send sign-in link' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the Content-Security-Policy', () => {
  it.beforeEach(async ({ browser }) => {
    b = await browser();
  });

  it('is not violated by the pages that validate forms (no probe of eval by the schema library)', async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('csp'));
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    for (const path of ['/app/licenses', '/app/billing']) {
      await page.goto(path, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), path).toEqual([]);
    }
  });
});

describe('/app/access-control', () => {
  it.beforeEach(async ({ browser }) => {
    b = await browser();
  });

  it('sends an anonymous visitor to sign in first, with the way back', async () => {
    const { page } = b;
    await page.goto('/app/access-control');
    await page.getByRole('button', { name: 'Send sign-in link' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname + url.search).toBe('/login?to=%2Fapp%2Faccess-control');
  });

  it("shows a signed-in user the shell with a 'Coming soon' page", async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('access'));
    await page.goto('/app/access-control');
    await page.getByRole('heading', { level: 1, name: 'Access Control' }).waitFor();
    expect(await sideMenu(page).isVisible()).toBe(true);
    expect(await page.getByRole('main').getByText('Coming soon').first().isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/app/access-control');
  });
});
