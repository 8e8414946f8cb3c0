import { readFileSync } from 'node:fs';
import { request as playwrightRequest, type Locator, type Page } from 'playwright-core';
import { baseUrl, describe, expect, it, screenshot, transitionsDone, uniqueEmail } from './fixtures';

const noHorizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * A row action shown whole: its label not cut inside the button, and the button inside every
 * scrolling or clipping box around it (a table scroller, the drawer) and the viewport.
 */
async function wholeAndInSight(button: Locator) {
  return button.evaluate((el) => {
    const label = el.querySelector('.mantine-Button-label') ?? el;
    const box = el.getBoundingClientRect();
    const problems: string[] = [];
    if (label.scrollWidth > label.clientWidth + 0.5) problems.push(`label cut: ${label.scrollWidth} > ${label.clientWidth}`);
    if (el.scrollWidth > el.clientWidth + 0.5) problems.push(`button cut: ${el.scrollWidth} > ${el.clientWidth}`);
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = p.getBoundingClientRect();
      if (box.left < c.left - 0.5 || box.right > c.right + 0.5) problems.push(`outside ${p.className || p.tagName}`);
    }
    if (box.left < 0 || box.right > window.innerWidth) problems.push('outside the viewport');
    return { text: el.textContent, problems };
  });
}

/** Waits until the drawer has slid in completely (its right edge on the viewport's), for screenshots. */
async function drawerSettled(page: Page, drawer: Locator) {
  const width = page.viewportSize()!.width;
  await expect
    .poll(async () => {
      const box = await drawer.boundingBox();
      return box ? Math.abs(box.x + box.width - width) < 1 : false;
    })
    .toBe(true);
  await transitionsDone(page);
}

describe('licenses page without licenses', () => {
  it('shows the empty state with the way to Billing (1280 and 390 px)', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('lic-empty'), viewport: { width: 1280, height: 800 } });
    await page.goto('/app/licenses');
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    await page.getByText('No licenses yet').waitFor();
    const buy = page.getByRole('link', { name: 'Subscribe in Billing' });
    expect(await buy.getAttribute('href')).toBe('/app/billing');
    await screenshot(page, 'licenses-empty-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText('No licenses yet').waitFor();
    await screenshot(page, 'licenses-empty-390');
    expect(await noHorizontalOverflow(page)).toBe(true);

    await buy.click();
    await page.waitForURL('**/app/billing');
  });
});

describe('licenses page with a license', () => {
  it('shows the license, activates, validates, sees a field machine, releases and downloads the file', async ({ customer }) => {
    const { page, licenseKey: key } = await customer({
      email: uniqueEmail('lic-owner'),
      viewport: { width: 1280, height: 800 },
      subscription: 3,
    });

    // The license the user came for (?highlight=) is marked, and the parameter leaves the address.
    await page.goto(`/app/licenses?highlight=${key}`);
    const table = page.getByRole('table', { name: 'Licenses' });
    const row = table.getByRole('row').filter({ hasText: key });
    await row.waitFor();
    await page.waitForURL((url) => !url.search.includes('highlight'));
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await row.getByText('Active').isVisible()).toBe(true);
    expect(await row.getByText('0 of 3').isVisible()).toBe(true);
    // A license of a subscription renews with it: its date, not an 'Expires in' countdown.
    expect(await row.getByText('Follows its subscription').isVisible()).toBe(true);
    expect(await row.getByText(/Expires in/).count()).toBe(0);
    await screenshot(page, 'licenses-data-1280');

    // Activate a node from the form.
    await row.getByRole('button', { name: `Open license ${key}` }).click();
    const drawer = page.getByRole('dialog', { name: 'License details' });
    await drawer.getByText('No nodes activated yet').waitFor();
    await drawer.getByRole('button', { name: 'Activate node' }).click();
    await drawer.getByRole('button', { name: 'Activate', exact: true }).click();
    await drawer.getByText('Enter the node fingerprint').waitFor();
    await drawer.getByRole('textbox', { name: /^Fingerprint/ }).fill('fp-e2e-1');
    await drawer.getByRole('textbox', { name: /^Hostname/ }).fill('web-01');
    await drawer.getByRole('button', { name: 'Activate', exact: true }).click();
    await drawer.getByText('Node web-01 is activated: 1 of 3 nodes in use.').waitFor();
    const nodes = drawer.getByRole('table', { name: 'Nodes' });
    await nodes.getByRole('row').filter({ hasText: 'web-01' }).waitFor();
    expect(await nodes.getByText('fp-e2e-1').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('1 of 3').count()).toBe(1);

    // Validate says the answer in words.
    await drawer.getByRole('button', { name: 'Validate', exact: true }).click();
    await drawer.getByText(/^This license is valid: 1 of 3 nodes in use, expires on .+\.$/).waitFor();
    await drawer.getByRole('textbox', { name: /^Fingerprint/ }).fill('fp-unknown');
    await drawer.getByRole('button', { name: 'Check again' }).click();
    await drawer.getByText(/node fp-unknown is not activated on it yet/).waitFor();

    // A field machine activates itself with the key alone (no cookies), and appears after a reload.
    const field = await playwrightRequest.newContext();
    try {
      const answer = await field.post(`${baseUrl}/api/licenses/${key}/activate`, {
        data: { fingerprint: 'fp-field-2', hostname: 'field-02' },
      });
      expect(answer.status(), await answer.text()).toBe(201);
      expect(answer.headers()['signature']).toBeTruthy();
    } finally {
      await field.dispose();
    }
    await page.reload();
    const reopened = page.getByRole('dialog', { name: 'License details' });
    await reopened.getByRole('table', { name: 'Nodes' }).getByText('field-02').waitFor();
    expect(await reopened.getByText('2 of 3 nodes in use').isVisible()).toBe(true);
    await drawerSettled(page, reopened);
    await screenshot(page, 'licenses-drawer-1280');

    // The last free node, then the limit: NODE_LIMIT_REACHED's message through the error display.
    await reopened.getByRole('button', { name: 'Activate node' }).click();
    await reopened.getByRole('textbox', { name: /^Fingerprint/ }).fill('fp-e2e-3');
    await reopened.getByRole('button', { name: 'Activate', exact: true }).click();
    await reopened.getByText('3 of 3 nodes in use').first().waitFor();
    await reopened.getByRole('textbox', { name: /^Fingerprint/ }).fill('fp-e2e-4');
    await reopened.getByRole('button', { name: 'Activate', exact: true }).click();
    const limit = reopened
      .getByRole('alert')
      .filter({ hasText: 'Error: This license allows 3 nodes and all of them are in use.' });
    await limit.waitFor();
    await transitionsDone(page);
    await screenshot(page, 'licenses-limit-1280');
    await reopened.getByRole('button', { name: 'Close', exact: true }).click();

    // Release a node, with a confirmation.
    await reopened.getByRole('button', { name: 'Release node field-02' }).click();
    const confirm = page.getByRole('dialog', { name: 'Release this node?' });
    await confirm.getByText('leaves this license at once, which frees one of its nodes').waitFor();
    await transitionsDone(page);
    await screenshot(page, 'licenses-release-1280');
    await confirm.getByRole('button', { name: 'Release node', exact: true }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await expect.poll(() => reopened.getByText('field-02').count()).toBe(0);
    await reopened.getByText('2 of 3 nodes in use').waitFor();

    // Download the signed license file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      reopened.getByRole('button', { name: 'Download license file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`license-${key}.json`);
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      license: { key: string; maxNodes: number };
      algorithm: string;
      signature: string;
    };
    expect(file.license.key).toBe(key);
    expect(file.license.maxNodes).toBe(3);
    expect(file.algorithm).toBe('Ed25519');
    expect(file.signature.length).toBeGreaterThan(40);

    // Closing the drawer leaves the table with the current figures.
    await page.keyboard.press('Escape');
    await expect.poll(() => reopened.isVisible()).toBe(false);
    await expect.poll(() => row.getByText('2 of 3').isVisible()).toBe(true);

    // The dark scheme (following the system setting).
    await page.emulateMedia({ colorScheme: 'dark' });
    await row.getByRole('button', { name: `Open license ${key}` }).click();
    await drawerSettled(page, reopened);
    await screenshot(page, 'licenses-drawer-dark-1280');
  });

  it("shows each node's Release action whole at 1280 and 390 px, beside a long hostname", async ({ customer }) => {
    const { page, licenseKey: key } = await customer({
      email: uniqueEmail('lic-actions'),
      viewport: { width: 1280, height: 800 },
      subscription: 3,
    });
    const field = await playwrightRequest.newContext();
    const hostname = 'hv-node-01.rack3.datacenter-frankfurt.example.net';
    try {
      for (const [fingerprint, name] of [
        ['c6f1e0a4b8d24f1a9e3b7c5d2a1f0e9d', hostname],
        ['0f9e8d7c6b5a49382716051a2b3c4d5e', 'db-02'],
      ]) {
        const answer = await field.post(`${baseUrl}/api/licenses/${key}/activate`, { data: { fingerprint, hostname: name } });
        expect(answer.status()).toBe(201);
      }
    } finally {
      await field.dispose();
    }
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
      await page.goto(`/app/licenses?license=${key}`);
      const drawer = page.getByRole('dialog', { name: 'License details' });
      const release = drawer.getByRole('button', { name: `Release node ${hostname}` });
      await release.waitFor();
      await drawerSettled(page, drawer);
      await release.scrollIntoViewIfNeeded();
      expect(await wholeAndInSight(release)).toEqual({ text: 'Release', problems: [] });
      expect(await wholeAndInSight(drawer.getByRole('button', { name: 'Release node db-02' }))).toEqual({
        text: 'Release',
        problems: [],
      });
      // The hostname stays on one line (never broken at its hyphens), cut with an ellipsis if need be.
      const name = drawer.getByText(hostname, { exact: true });
      expect(await name.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
      expect(await name.getAttribute('title')).toBe(hostname);
      if (width === 1280) {
        // Roomy: the table fits the view, nothing scrolls sideways.
        const table = drawer.getByRole('table', { name: 'Nodes' });
        expect(await table.evaluate((el) => el.parentElement!.scrollWidth <= el.parentElement!.clientWidth)).toBe(true);
      }
      await screenshot(page, `licenses-nodes-actions-${width}`);
    }
  });

  it('fits a 390 px phone: cards, a full-width license view, no sideways scrolling', async ({ customer }) => {
    const { page, licenseKey: key } = await customer({
      email: uniqueEmail('lic-phone'),
      viewport: { width: 390, height: 844 },
      subscription: 2,
    });
    const field = await playwrightRequest.newContext();
    try {
      const answer = await field.post(`${baseUrl}/api/licenses/${key}/activate`, {
        data: { fingerprint: 'c6f1e0a4b8d24f1a9e3b7c5d2a1f0e9d', hostname: 'hv-node-01.rack3.example.net' },
      });
      expect(answer.status()).toBe(201);
    } finally {
      await field.dispose();
    }
    await page.goto('/app/licenses');
    const card = page.getByRole('listitem').filter({ hasText: key });
    await card.waitFor();
    expect(await card.getByText('1 of 2 nodes in use').isVisible()).toBe(true);
    await screenshot(page, 'licenses-data-390');
    expect(await noHorizontalOverflow(page)).toBe(true);

    await card.getByRole('button', { name: `Open license ${key}` }).click();
    const drawer = page.getByRole('dialog', { name: 'License details' });
    await drawer.getByText('hv-node-01.rack3.example.net').waitFor();
    await drawer.getByRole('button', { name: 'Validate', exact: true }).click();
    await drawer.getByText(/^This license is valid/).waitFor();
    await drawerSettled(page, drawer);
    await screenshot(page, 'licenses-drawer-390');

    // Nodes as cards, and the commands scrolling inside their own boxes.
    await drawer.getByRole('button', { name: 'Close', exact: true }).click();
    const nodes = drawer.getByRole('list', { name: 'Nodes' });
    await nodes.scrollIntoViewIfNeeded();
    expect(await nodes.getByRole('button', { name: 'Release node hv-node-01.rack3.example.net' }).isVisible()).toBe(true);
    const drawerBox = (await drawer.boundingBox())!;
    const nodesBox = (await nodes.boundingBox())!;
    expect(nodesBox.x + nodesBox.width).toBeLessThanOrEqual(drawerBox.x + drawerBox.width);
    await transitionsDone(page);
    await screenshot(page, 'licenses-drawer-nodes-390');
  });
});

describe("the license drawer's code", () => {
  const drawerChunk = /\/assets\/license-drawer-[\w-]+\.js$/;
  const formsChunk = /\/assets\/forms-[\w-]+\.js$/;

  it('is not part of the first screen; a failed download says so with Retry, and Retry opens the license', async ({
    customer,
  }) => {
    const { page, licenseKey: key } = await customer({ email: uniqueEmail('lic-drawer'), subscription: 1 });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    let offline = true;
    await page.route(drawerChunk, (route) => (offline ? route.abort('internetdisconnected') : route.continue()));

    // The list shows without the drawer's code or the form code it needs.
    await page.goto('/app/licenses');
    const row = page.getByRole('table', { name: 'Licenses' }).getByRole('row').filter({ hasText: key });
    await row.waitFor();
    expect(fetched.filter((f) => formsChunk.test(f))).toEqual([]);

    // Opening the license asks for it; the network drops: the page says so, and Retry opens it.
    await row.getByRole('button', { name: `Open license ${key}` }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Error:' });
    await failed.waitFor();
    await screenshot(page, 'licenses-drawer-load-failed');
    offline = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('dialog', { name: 'License details' }).getByText(key).first().waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('arriving after the license was opened from the keyboard, still gives focus back to the opener on Escape', async ({
    customer,
  }) => {
    const { page, licenseKey: key } = await customer({ email: uniqueEmail('lic-drawer-late'), subscription: 1 });
    // The drawer's code is held until the license has been opened.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const requested = new Promise<void>((resolve) => (asked = resolve));
    await page.route(drawerChunk, async (route) => {
      asked();
      await released;
      await route.continue();
    });

    await page.goto('/app/licenses');
    const open = page.getByRole('button', { name: `Open license ${key}` });
    await open.focus();
    await requested;
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]license=/);
    release();
    const drawer = page.getByRole('dialog', { name: 'License details' });
    await drawer.getByText(key).first().waitFor();
    await transitionsDone(page);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
