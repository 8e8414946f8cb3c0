import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { consoleUrl, describe, expect, it, type Staff } from './console-fixtures';
import { screenshot, transitionsDone } from './fixtures';

/**
 * The console's remaining tables (ADR 108, ADR 120): the tax report, the security page's factors,
 * the API tokens, the webhook endpoints and their delivery log, and the audit log, with
 * 60-character names and URLs. At a laptop's 1280 px and a phone's 390 px, light and dark, neither
 * the page nor a table scrolls sideways, each row's action is on screen and at least 24 px each way
 * (44 on a phone's card), and axe finds nothing.
 */

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A unique text of exactly 60 characters, starting with `start`. */
function sixty(start: string) {
  const tail = `-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return `${start}${'-long'.repeat(20)}`.slice(0, 60 - tail.length) + tail;
}

/** The current code of an authenticator app for a base32 secret (RFC 6238: SHA-1, 30 s, 6 digits). */
function totp(secret: string, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

/** Neither the page nor any table in it scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const wide = await page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll<HTMLElement>('.mantine-TableScrollContainer-scrollContainer')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
  expect(wide, `${what} scrolls sideways`).toEqual([]);
}

/** The control is inside the viewport's width and at least `min` px each way. */
async function expectReachable(page: Page, control: Locator, min: number, what: string) {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${what} is shown`).not.toBeNull();
  expect(box!.x, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends on screen`).toBeLessThanOrEqual(width);
  expect(box!.width, `${what}: width`).toBeGreaterThanOrEqual(min);
  expect(box!.height, `${what}: height`).toBeGreaterThanOrEqual(min);
}

/** The long values on the shared server, the pages to check, and how to leave the server as it was. */
async function setUp({
  staff,
  customer,
}: {
  staff: (role: 'owner' | 'support') => Promise<Staff>;
  customer: (options: { subscription: number }) => Promise<unknown>;
}) {
  const owner = await staff('owner');
  const api = owner.page.request;
  const headers = { origin: consoleUrl };

  // An endpoint with a 60-character URL on a private address (its deliveries are refused and
  // logged, nothing leaves the machine), a long description and a long list of events.
  const url = `http://10.0.0.1/${sixty('hooks').slice(16)}`;
  expect(url).toHaveLength(60);
  const created = await api.post(`${consoleUrl}/api/console/webhooks`, {
    headers,
    data: {
      url,
      description: sixty('CRM of the analytical engines department in the office'),
      eventTypes: ['customer.created', 'subscription.created', 'invoice.paid', 'license.issued', 'node.activated'],
      reason: 'Phone layout check, ticket 7120',
    },
  });
  expect(created.status()).toBe(201);
  const endpointId = ((await created.json()) as { endpoint: { id: string } }).endpoint.id;

  const tokenName = sixty('nightly-reconciliation-script-of-the-accounts-team');
  const token = await api.post(`${consoleUrl}/api/console/tokens`, {
    headers,
    data: { name: tokenName, role: 'support', expiresInDays: 30, reason: 'Phone layout check, ticket 7120' },
  });
  expect(token.status()).toBe(201);
  const tokenId = ((await token.json()) as { token: { id: string } }).token.id;

  // A purchase: an invoice for the tax report, events for the delivery log, audit entries.
  await customer({ subscription: 1 });

  // A support member with an authenticator app named with 60 characters, for the security page.
  const member = await staff('support');
  const enrol = await member.page.request.post(`${consoleUrl}/api/console/auth/factors/totp/options`, { headers });
  expect(enrol.status()).toBe(200);
  const { secret } = (await enrol.json()) as { secret: string };
  const factorLabel = sixty('Authenticator app on the support team phone in the office');
  const added = await member.page.request.post(`${consoleUrl}/api/console/auth/factors/totp`, {
    headers,
    data: { label: factorLabel, code: totp(secret) },
  });
  expect(added.status(), await added.text()).toBeLessThan(300);

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  type Check = {
    name: string;
    page: Page;
    path: string;
    ready: (p: Page) => Promise<unknown>;
    /** The row's action, or (a table without actions) the row's last figure. */
    action: (p: Page) => Locator;
    /** The smallest the action may be at this width. */
    min: (width: number) => number;
  };
  const tapTarget = (width: number) => (width < 768 ? 44 : 24);
  const checks: Check[] = [
    {
      name: 'tax-report',
      page: owner.page,
      path: `/reports/tax?from=${from}&to=${today}`,
      ready: (p) => p.getByRole('table', { name: 'Tax by regime, country and rate' }).getByRole('row').nth(1).waitFor(),
      action: (p) =>
        p.getByRole('table', { name: 'Tax by regime, country and rate' }).getByRole('row').nth(1).getByRole('cell').last(),
      min: () => 0,
    },
    {
      name: 'security',
      page: member.page,
      path: '/security',
      ready: (p) => p.getByRole('table', { name: 'Your second factors' }).getByText(factorLabel).waitFor(),
      action: (p) => p.getByRole('button', { name: `Remove ${factorLabel}` }),
      min: tapTarget,
    },
    {
      name: 'api-tokens',
      page: owner.page,
      path: '/api-tokens',
      ready: (p) => p.getByRole('table', { name: 'API tokens' }).getByText(tokenName).waitFor(),
      action: (p) => p.getByRole('button', { name: `Revoke ${tokenName}` }),
      min: tapTarget,
    },
    {
      name: 'webhooks',
      page: owner.page,
      path: '/webhooks',
      ready: (p) => p.getByRole('link', { name: url }).waitFor(),
      action: (p) => p.getByRole('button', { name: `Delete ${url}` }),
      min: tapTarget,
    },
    {
      name: 'delivery-log',
      page: owner.page,
      path: `/webhooks/${endpointId}`,
      ready: async (p) => {
        // The outbox delivers (and refuses) the purchase's events in the background.
        const attempts = p.getByRole('table', { name: 'Delivery attempts' });
        await expect
          .poll(async () => {
            await p.reload();
            await attempts.or(p.getByText('Nothing delivered yet')).waitFor();
            return attempts.getByRole('row').count();
          })
          .toBeGreaterThan(1);
      },
      action: (p) => p.getByRole('button', { name: /^Resend / }).first(),
      min: tapTarget,
    },
    {
      name: 'audit',
      page: owner.page,
      path: '/audit',
      ready: (p) => p.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1).waitFor(),
      action: (p) => p.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1).getByRole('cell').last(),
      min: () => 0,
    },
  ];

  const cleanUp = async () => {
    // Leave the shared server as it was: the endpoint gets no more events, the token is revoked.
    const removed = await api.delete(`${consoleUrl}/api/console/webhooks/${endpointId}`, {
      headers,
      data: { reason: 'Phone layout check done' },
    });
    expect(removed.status()).toBeLessThan(300);
    const revoked = await api.delete(`${consoleUrl}/api/console/tokens/${tokenId}`, {
      headers,
      data: { reason: 'Phone layout check done' },
    });
    expect(revoked.status()).toBeLessThan(300);
  };
  return { owner, url, tokenName, checks, cleanUp };
}

/** Each page at one width in both schemes: no sideways scroll, the row's action reachable, a screenshot, axe. */
async function walk(checks: Awaited<ReturnType<typeof setUp>>['checks'], viewport: { width: number; height: number }) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const c of checks) {
      const page = c.page;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await page.goto(c.path);
      await c.ready(page);
      await transitionsDone(page);
      const what = `${c.name} at ${viewport.width} px (${colorScheme})`;
      await expectNoSidewaysScroll(page, what);
      await expectReachable(page, c.action(page), c.min(viewport.width), `${what}: the row's action`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `console-phone-tables-${c.name}-${viewport.width}-${colorScheme}`);
      await expectAccessible(page, `console ${what}, long values`);
      if (c.name === 'audit') {
        // A sign-in has no reason: its cell shows a dash, not a bare label on a phone's card.
        const reasons = await page
          .getByRole('table', { name: 'Audit log' })
          .getByRole('row')
          .evaluateAll((rows) => rows.slice(1).map((r) => r.lastElementChild?.textContent?.trim() ?? ''));
        expect(reasons.length, 'audit rows').toBeGreaterThan(0);
        expect(
          reasons.filter((r) => r === ''),
          `${what}: empty reasons`,
        ).toEqual([]);
      }
    }
  }
}

// Hang guards, not budgets: six pages in two schemes, each through axe, on a machine shared with other suites.
describe('the console tables with long values', () => {
  it('keeps the tax report, security, API tokens, webhooks, delivery log and audit log within a 1280 px screen', async ({
    staff,
    customer,
  }) => {
    const { owner, tokenName, checks, cleanUp } = await setUp({ staff, customer });
    await walk(checks, LAPTOP);
    // A long value is cut on a laptop and whole on hover.
    await owner.page.setViewportSize(LAPTOP);
    await owner.page.goto('/api-tokens');
    await owner.page.getByText(tokenName).waitFor();
    expect(await owner.page.locator(`[title="${tokenName}"]`).count()).toBe(1);

    await cleanUp();
  }, 600_000);

  it('shows each row of these pages as a card on a 390 px phone, its action reachable and working', async ({
    staff,
    customer,
  }) => {
    const { owner, url, checks, cleanUp } = await setUp({ staff, customer });
    await walk(checks, PHONE);
    // On a phone the row's action works from its card.
    await owner.page.setViewportSize(PHONE);
    await owner.page.goto('/webhooks');
    await owner.page.getByRole('button', { name: `Turn off ${url}` }).click();
    await owner.page.getByRole('dialog', { name: 'Turn endpoint off' }).waitFor();
    await owner.page.keyboard.press('Escape');

    await cleanUp();
  }, 600_000);
});
