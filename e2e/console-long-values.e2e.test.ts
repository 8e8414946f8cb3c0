import type { Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { consoleTarget, consoleUrl, describe, expect, it } from './console-fixtures';
import { searchBox } from './console-helpers';
import { screenshot, transitionsDone } from './fixtures';

/**
 * The console's lists and customer page with a customer whose e-mail and company are 60
 * characters each: no page scrolls sideways at a laptop's 1280 px or a phone's 390 px, the long
 * values are cut with an ellipsis (whole on hover), status, amounts and dates stay on screen, and
 * on a phone a license's status and menu are on screen and work. The charts' chunk loads with the
 * overview only.
 */

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const COMPANY = 'Analytical Engines and Difference Machines International Ltd';

/** A page of the walk: where it is, and what shows it has its data. */
type Walk = { name: string; path: string; ready: (p: Page) => Promise<unknown> };

let counter = 0;
/** A unique address of exactly 60 characters. */
function longEmail() {
  const tail = `-${Date.now().toString(36)}${(counter++).toString(36)}@analytical-engines.example`;
  return `${'ada-lovelace-countess'.padEnd(60 - tail.length, 'x')}${tail}`;
}

/** Neither the page nor any table in it scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    const wide = [root, ...document.querySelectorAll<HTMLElement>('.mantine-TableScrollContainer-scrollContainer')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`);
    return wide;
  });
  expect(overflow, `${what} scrolls sideways`).toEqual([]);
}

/** The element is inside the viewport's width. */
async function expectOnScreen(page: Page, locator: ReturnType<Page['locator']>, what: string) {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, `${what} is shown`).not.toBeNull();
  expect(box!.x, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends on screen`).toBeLessThanOrEqual(width);
}

/** The overview's figures that stand side by side share one baseline, whatever their labels' and hints' lengths. */
async function expectFiguresOnOneLine(page: Page, what: string) {
  const rows = await page.evaluate(() => {
    const byRow = new Map<number, number[]>();
    for (const tile of document.querySelectorAll<HTMLElement>('.console-tiles > [role="group"]')) {
      const figure = tile.querySelector<HTMLElement>('.console-figure');
      if (!figure) continue;
      const top = Math.round(tile.getBoundingClientRect().top);
      byRow.set(top, [...(byRow.get(top) ?? []), Math.round(figure.getBoundingClientRect().bottom)]);
    }
    return [...byRow.values()];
  });
  expect(rows.length, `${what}: rows of figures`).toBeGreaterThan(1);
  for (const bottoms of rows) expect(new Set(bottoms).size, `${what}: figures of a row ${bottoms.join(', ')}`).toBe(1);
}

describe('console with long e-mails and company names', () => {
  // One test per width, scheme and half of the pages (the four lists; the overview, audit log,
  // staff list and customer page), each with its own customer and staff member: eight pages with
  // their accessibility checks in one test ran past its hang guard on CI's busy machine.
  const walks = [LAPTOP, PHONE].flatMap((viewport) =>
    (['light', 'dark'] as const).flatMap((colorScheme) =>
      (['lists', 'pages'] as const).map((half) => ({ viewport, colorScheme, half })),
    ),
  );
  it.for(walks)(
    'keeps the $half within the screen at $viewport.width px, $colorScheme',
    async ({ viewport, colorScheme, half }, { staff, customer }) => {
      const email = longEmail();
      expect(email).toHaveLength(60);
      expect(COMPANY).toHaveLength(60);
      const buyer = await customer({ subscription: 3, fname: 'Ada', lname: 'Longname', company: COMPANY, email });
      const activated = await buyer.page.request.post(`/api/licenses/${buyer.licenseKey}/activate`, {
        data: { fingerprint: 'e2e-long-fp-0001', hostname: 'pve-analytical-engines-node-01.long-domain.example' },
      });
      expect(activated.status()).toBe(201);

      const owner = await staff('owner');
      const found = await owner.page.request.get(`${consoleUrl}/api/console/customers?q=${encodeURIComponent(email)}`);
      const { items } = (await found.json()) as { items: { id: string }[] };
      const id = items[0]!.id;
      // A staff member with a long address too, for the staff list and the audit log.
      const member = longEmail().replace('@analytical-engines.example', '@vendor.example').padStart(60, 'x');
      if (half === 'pages') {
        const added = await owner.page.request.post(`${consoleUrl}/api/console/staff`, {
          data: { email: member, role: 'support', reason: 'Joins support' },
          headers: { origin: consoleUrl },
        });
        expect(added.status()).toBeLessThan(300);
      }

      const q = `q=${encodeURIComponent(email)}`;
      const lists: Walk[] = [
        { name: 'customers', path: `/customers?${q}`, ready: (p) => p.getByRole('link', { name: 'Ada Longname' }).waitFor() },
        {
          name: 'subscriptions',
          path: `/subscriptions?${q}`,
          ready: (p) => p.getByRole('link', { name: email }).waitFor(),
        },
        { name: 'licenses', path: `/licenses?${q}`, ready: (p) => p.getByRole('link', { name: email }).waitFor() },
        { name: 'invoices', path: `/invoices?${q}`, ready: (p) => p.getByRole('link', { name: email }).waitFor() },
      ];
      const pages: Walk[] = [
        { name: 'overview', path: '/overview', ready: (p) => p.locator('.recharts-surface').first().waitFor() },
        {
          name: 'audit',
          path: '/audit',
          ready: (p) => p.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1).waitFor(),
        },
        { name: 'staff', path: '/staff', ready: (p) => p.getByText(member).waitFor() },
        {
          name: 'customer',
          path: `/customers/${id}`,
          ready: (p) => p.getByRole('region', { name: 'Nodes' }).getByText('pve-analytical-engines').waitFor(),
        },
      ];

      // The owner's one signed-in page for the whole walk: each sign-in of the owner replaces the
      // link another file running beside this one may be about to open.
      const { page } = owner;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      for (const p of half === 'lists' ? lists : pages) {
        await page.goto(p.path);
        await p.ready(page);
        await transitionsDone(page);
        const what = `${p.name} at ${viewport.width} px (${colorScheme})`;
        await expectNoSidewaysScroll(page, what);
        await screenshot(page, `console-long-${p.name}-${viewport.width}-${colorScheme}`);
        if (p.name === 'overview') await expectFiguresOnOneLine(page, what);
        await expectAccessible(page, `console ${what}, long values`);
      }

      if (half === 'lists') {
        // The long values are cut, whole on hover; each row's status and date are on screen.
        await page.goto(`/invoices?${q}`);
        const link = page.getByRole('link', { name: email });
        await link.waitFor();
        expect(await page.locator(`[title="${email}"]`).count()).toBeGreaterThan(0);
        const invoice = page.getByRole('row').filter({ hasText: email });
        await expectOnScreen(page, invoice.getByText('Paid', { exact: true }), `invoice status at ${viewport.width} px`);

        await page.goto(`/customers?${q}`);
        await page.getByRole('link', { name: 'Ada Longname' }).waitFor();
        expect(await page.locator(`[title="${COMPANY}"]`).count()).toBe(1);
        const signedUp = page.getByRole('row').filter({ hasText: email }).getByRole('cell').last();
        await expectOnScreen(page, signedUp, `the sign-up date at ${viewport.width} px`);
        return;
      }

      // On a phone a license's status and its menu are on screen, and the menu opens.
      if (viewport !== PHONE || colorScheme !== 'light') return;
      await page.goto(`/customers/${id}`);
      const licenses = page.getByRole('region', { name: 'Licenses' });
      await licenses.getByText(buyer.licenseKey).waitFor();
      await expectOnScreen(page, licenses.getByText('Active', { exact: true }), 'the license status on a phone');
      const menu = licenses.getByRole('button', { name: `Actions for license ${buyer.licenseKey}` });
      await expectOnScreen(page, menu, 'the license menu on a phone');
      await menu.click();
      await page.getByRole('menuitem', { name: 'Suspend…' }).waitFor();
      await page.keyboard.press('Escape');
      const nodeMenu = page.getByRole('region', { name: 'Nodes' }).getByRole('button', { name: /Actions for node/ });
      await expectOnScreen(page, nodeMenu, 'the node menu on a phone');
    },
  );

  it('loads the charts with the overview only, not on the sign-in or a customer page', async ({ browser, staff }) => {
    const charts = (p: Page) => {
      const seen: string[] = [];
      p.on('request', (r) => {
        if (/\/assets\/overview-page-[\w-]+\.js$/.test(r.url())) seen.push(r.url());
      });
      return seen;
    };
    const visitor = await browser({ target: consoleTarget });
    const onLogin = charts(visitor.page);
    await visitor.page.goto(`${consoleUrl}/login`);
    await visitor.page.getByRole('heading', { name: 'Sign in to the vendor console' }).waitFor();
    expect(onLogin).toEqual([]);

    const { page } = await staff('owner');
    const loaded = charts(page);
    await page.goto('/customers');
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(loaded).toEqual([]);
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.locator('.recharts-surface').first().waitFor();
    expect(loaded).toHaveLength(1);
  });
});

type Box = { x: number; y: number; width: number; height: number };

/**
 * Records in the page where the first toast (alert) whose text has `text` comes to rest: its box
 * once it has stayed the same for five frames with no transition running. A toast closes itself
 * after four seconds, which on a busy machine can pass before it has been drawn at rest five
 * times, let alone before the test reads its box: so the moment it appears, the page tells it that
 * a pointer came to rest on it (a `mouseover` from outside, as when a pointer enters the window),
 * which keeps it open as it does for a user reading it.
 */
async function watchRestingBox(page: Page, text: string) {
  await page.evaluate((text) => {
    const w = window as unknown as { restingBox?: Box | null };
    w.restingBox = null;
    let last = '';
    let same = 0;
    let held: Element | undefined;
    const find = () => [...document.querySelectorAll('[role="alert"]')].find((el) => el.textContent?.includes(text));
    const hold = () => {
      const alert = find();
      if (!alert || alert === held) return;
      held = alert;
      alert.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: null }));
    };
    // Called back as soon as the toast is in the page, long before its four seconds are up.
    new MutationObserver(hold).observe(document.body, { childList: true, subtree: true, characterData: true });
    const look = () => {
      const alert = find();
      const moving = document
        .getAnimations()
        .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
      const r = alert?.getBoundingClientRect();
      const box = r && r.height > 0 && !moving ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
      same = box && JSON.stringify(box) === last ? same + 1 : 0;
      last = box ? JSON.stringify(box) : '';
      if (box && same >= 5) w.restingBox = box;
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, text);
}

/** The box `watchRestingBox` recorded, once there is one. */
async function restingBox(page: Page): Promise<Box> {
  const read = () => page.evaluate(() => (window as unknown as { restingBox?: Box | null }).restingBox ?? null);
  await expect.poll(read, { message: 'the toast comes to rest' }).not.toBeNull();
  return (await read())!;
}

describe('console top bar', () => {
  it('shows toasts clear of the search box and its results, and keyboard hints at a desk only', async ({ staff, customer }) => {
    const buyer = await customer({ fname: 'Toast', lname: 'Reader' });
    const { page } = await staff('owner');
    const member = `toast-${Date.now().toString(36)}@vendor.example`;
    const added = await page.request.post(`${consoleUrl}/api/console/staff`, {
      data: { email: member, role: 'support', reason: 'Joins support' },
      headers: { origin: consoleUrl },
    });
    expect(added.status()).toBeLessThan(300);

    await page.goto('/staff');
    await page.getByRole('combobox', { name: `Role of ${member}` }).click();
    await page.getByRole('option', { name: 'Billing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change role' });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Moves to accounts');
    await watchRestingBox(page, 'Role changed');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    const shown = await restingBox(page);
    const search = await searchBox(page).boundingBox();
    expect(shown.y, 'the toast starts under the search box').toBeGreaterThanOrEqual(search!.y + search!.height);

    // At a desk the results say which keys move, open and close; on a phone's touch screen they do not.
    await searchBox(page).fill(buyer.email);
    await page.getByRole('option', { name: /Toast Reader/ }).waitFor();
    await page.getByText('to move').waitFor();
    // The toast is still open (held as under a resting pointer), where it came to rest.
    const results = await page.getByRole('listbox', { name: 'Search results' }).boundingBox();
    const toast = await page.getByRole('alert').filter({ hasText: 'Role changed' }).boundingBox();
    expect(toast, 'the toast stays where it came to rest').toEqual(shown);
    expect(toast!.y, 'the toast stands clear of the search results').toBeGreaterThanOrEqual(results!.y + results!.height);
    await screenshot(page, 'console-search-customer-1280-light');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/overview');
    await searchBox(page).fill(buyer.email);
    await page.getByRole('option', { name: /Toast Reader/ }).waitFor();
    expect(await page.getByText('to move').count()).toBe(0);
    await screenshot(page, 'console-search-customer-390-light');
  });
});
