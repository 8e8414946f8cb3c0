import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { expectAccessible } from './axe';
import { describe, expect, it } from './console-fixtures';
import { act, expectLogged, section } from './console-helpers';
import { cardsWorkAgain, failRenewal, startPortalWithData, type DataPortal } from './dunning';
import { screenshot, transitionsDone, uniqueEmail } from './fixtures';

/**
 * Issue 22 in the console, on a server of the file's own (dunning.ts): a customer's renewal fails
 * on the server's own renewal worker; the vendor's billing staff find the customer in the
 * subscriptions list filtered by "Payment failing" with the next retry, the failing payment on the
 * customer page, the MRR at risk on the overview; the customer's card works again and "Retry
 * payment now" with a reason makes the subscription active at once, logged with the reason.
 */

let portal: DataPortal;
beforeAll(async () => {
  portal = await startPortalWithData();
});
afterAll(() => portal?.stop());

const day = (d: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/** What the server's worker wrote: the next retry, and the subscription's monthly amount. */
async function failing(stripeId: string) {
  const { rows } = await portal.sql(
    `select next_payment_attempt_at, unit_amount * quantity as amount from subscriptions where provider_id = $1`,
    [stripeId],
  );
  const row = rows[0] as { next_payment_attempt_at: Date; amount: number };
  return { nextRetry: day(row.next_payment_attempt_at), amount: Number(row.amount) };
}

/** The same pages at a width and colour scheme, as the owner: screenshots, and axe when `axe`. */
async function lookAt(page: Page, where: string, customerPath: string, axe: boolean) {
  for (const [path, name] of [
    ['/subscriptions?status=past_due', 'list'],
    ['/overview', 'overview'],
    [customerPath, 'customer'],
  ] as const) {
    await page.goto(path);
    if (name === 'list') await page.getByRole('table', { name: 'Subscriptions' }).getByText('Payment failing').waitFor();
    if (name === 'overview') await page.getByText('MRR at risk').waitFor();
    if (name === 'customer') await page.getByRole('region', { name: 'Failing payment' }).waitFor();
    await transitionsDone(page);
    if (axe) await expectAccessible(page, `console dunning ${name}, ${where}`);
    await screenshot(page, `console-dunning-${name}-${where}`);
  }
}

/**
 * The overview with 8-digit amounts (a vendor's MRR in the tens of millions), on the page's own
 * width: every figure stays inside its tile.
 */
async function bigFigures(page: Page, where: string) {
  await page.route('**/api/console/overview', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...body, mrr: 1_234_567_890, arr: 14_814_814_680, mrrAtRisk: 98_765_432_10 } });
  });
  await page.goto('/overview');
  await page.getByRole('group', { name: 'MRR at risk' }).getByText('$98,765,432.10').waitFor();
  await transitionsDone(page);
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('[role="group"]')].flatMap((tile) => {
      const edge = tile.getBoundingClientRect().right;
      return [...tile.querySelectorAll('*')]
        .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
        .map((el) => `${tile.getAttribute('aria-label')}: ${el.textContent}`);
    }),
  );
  expect(overflowing).toEqual([]);
  await screenshot(page, `console-dunning-overview-8-digits-${where}`);
  await page.unroute('**/api/console/overview');
}

describe('a failing payment in the console', () => {
  // A story of four widths and schemes, a dozen pages and their screenshots: a longer hang guard.
  it(
    'is found by "Payment failing", shows its retry and MRR at risk, and "Retry payment now" restores it',
    {
      timeout: 480_000,
    },
    async ({ staff, customer }) => {
      const email = uniqueEmail('dunning');
      const buyer = await customer({ subscription: 2, target: portal.target, email, fname: 'Ada', lname: 'Dunning' });
      await failRenewal(portal, buyer.stripeId);
      const { nextRetry, amount } = await failing(buyer.stripeId);

      const { page } = await staff('billing', { target: portal.consoleTarget });
      // The list, filtered by "Payment failing" from its filter: the row with its next retry.
      await page.goto('/subscriptions');
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Status: Payment failing' }).click();
      await expect.poll(() => new URL(page.url()).search).toContain('status=past_due');
      const row = page.getByRole('table', { name: 'Subscriptions' }).getByRole('row').filter({ hasText: email });
      await row.getByText('Payment failing').waitFor();
      await row.getByText(nextRetry, { exact: true }).waitFor();
      await row.getByText(/^Access until /).waitFor();

      // The overview: the subscription's MRR is at risk.
      await page.goto('/overview');
      const risk = page.getByRole('group', { name: 'MRR at risk' });
      await risk.getByText(usd(amount), { exact: true }).waitFor();
      await risk.getByRole('link', { name: '1 subscription in grace, payment failing' }).click();
      await row.waitFor();

      // The customer page: the failing payment's dates and amount.
      await row.getByRole('link', { name: email }).click();
      await page.getByRole('heading', { level: 1, name: 'Ada Dunning' }).waitFor();
      const customerPath = new URL(page.url()).pathname;
      const subscriptions = section(page, 'Subscriptions');
      await subscriptions.getByText('Payment failing', { exact: true }).waitFor();
      const facts = subscriptions.getByRole('region', { name: 'Failing payment' });
      await facts.getByText(nextRetry, { exact: true }).waitFor();
      await facts.getByText(usd(amount), { exact: true }).waitFor();

      // Looked at in both schemes and at both widths (the owner: no more members than needed); axe
      // in both schemes at the laptop's width (the phone's layout has the same elements and colours).
      for (const [width, scheme] of [
        [1280, 'light'],
        [1280, 'dark'],
        [390, 'light'],
        [390, 'dark'],
      ] as const) {
        const owner = await staff('owner', {
          target: portal.consoleTarget,
          viewport: { width, height: width === 390 ? 844 : 800 },
          colorScheme: scheme,
        });
        await lookAt(owner.page, `${width}-${scheme}`, customerPath, width === 1280);
        await bigFigures(owner.page, `${width}-${scheme}`);
        await owner.close();
      }

      // The customer's bank sorted it out; the staff retry now, with a reason.
      await cardsWorkAgain(portal, buyer.stripeId);
      await act(page, {
        opener: subscriptions.getByRole('button', { name: `Actions for subscription ${buyer.stripeId}` }),
        item: 'Retry payment now…',
        dialog: 'Retry payment now',
        confirm: 'Retry payment',
        reason: 'Card replaced by the bank, ticket 7002',
        axe: 'console retry-payment dialog',
      });
      await subscriptions.getByText('Active', { exact: true }).waitFor();
      expect(await subscriptions.getByRole('region', { name: 'Failing payment' }).count()).toBe(0);
      await expectLogged(page, 'Card replaced by the bank, ticket 7002');
      await section(page, 'Activity')
        .getByText(/^Paid the open invoice of /)
        .first()
        .waitFor();
      const status = await portal.sql('select status, next_payment_attempt_at from subscriptions where provider_id = $1', [
        buyer.stripeId,
      ]);
      expect(status.rows[0]).toEqual({ status: 'active', next_payment_attempt_at: null });

      // The staff audit log has it, and nothing is at risk any more.
      await page.goto('/audit');
      await page.getByText('Card replaced by the bank, ticket 7002').waitFor();
      await page.goto('/overview');
      const after = page.getByRole('group', { name: 'MRR at risk' });
      await after.getByText(usd(0), { exact: true }).waitFor();
    },
  );
});
