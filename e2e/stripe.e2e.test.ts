import { createHmac } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startStripeWireServer, type StripeWireServer, type WireEvent } from '../apps/server/test/stripe-wire-server';
import { installStripeJsStandIn } from '../apps/web/src/test/stripe-js-stand-in';
import {
  describe,
  expect,
  HANG_GUARD_MS,
  it,
  screenshot,
  transitionsDone,
  uniqueEmail,
  WCAG_TAGS,
  type Browser,
  type NewCustomer,
  type Target,
} from './fixtures';
import { startPortal, type Portal } from './portal-server';

/**
 * The portal on Stripe, in the browser: a second server configured for Stripe talks to the local
 * Stripe-wire server (Stripe's API for exactly the calls the portal makes), the browser loads the
 * Stripe.js stand-in where Stripe's script would be, and its calls to https://api.stripe.com go to
 * the same wire server. Events the wire server reports are signed as Stripe signs them and posted
 * to the portal's webhook. The page's real CSP applies throughout.
 */
const SECRET_KEY = 'sk_test_e2e';
const PUBLISHABLE_KEY = 'pk_test_e2e';
const WEBHOOK_SECRET = 'whsec_e2e';

let wire: StripeWireServer;
let portal: Portal;
let target: Target;
let b: Browser;
const deliveries: Promise<void>[] = [];

/** Stripe's webhook signature: HMAC-SHA256 of `<timestamp>.<body>` with the endpoint secret. */
function signature(payload: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex')}`;
}

function deliver(event: WireEvent) {
  const payload = JSON.stringify(event);
  deliveries.push(
    fetch(`${portal.baseUrl}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
      body: payload,
    }).then(async (res) => {
      if (res.status !== 200) throw new Error(`webhook ${event.type} answered ${res.status}: ${await res.text()}`);
    }),
  );
}

/** Stripe's script and API, for this browser: the stand-in, and the wire server. */
async function routeStripe(context: BrowserContext) {
  const script = `(${installStripeJsStandIn.toString()})(window);`;
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: script }),
  );
  await context.route('https://api.stripe.com/**', async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    const res = await fetch(`${wire.url}${url.pathname}${url.search}`, {
      method: req.method(),
      headers: { 'content-type': req.headers()['content-type'] ?? 'application/x-www-form-urlencoded' },
      ...(req.method() === 'POST' ? { body: req.postData() ?? '' } : {}),
    });
    await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
  });
}

beforeAll(async () => {
  wire = await startStripeWireServer({
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    prices: [
      { id: 'price_e2e_month', unitAmount: 2500, currency: 'usd', interval: 'month' },
      { id: 'price_e2e_year', unitAmount: 25000, currency: 'usd', interval: 'year' },
    ],
    now: () => new Date(),
    onEvent: deliver,
  });
  portal = await startPortal({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: wire.url,
    STRIPE_PRICE_MONTH: 'price_e2e_month',
    STRIPE_PRICE_YEAR: 'price_e2e_year',
  });
  target = { baseUrl: portal.baseUrl, dataDir: portal.dataDir };
});

afterAll(async () => {
  await Promise.allSettled(deliveries);
  await portal?.stop();
  await wire?.close();
});

/** axe-core (WCAG 2.0–2.2 A and AA) on the page as it is, once transitions have ended: the rule ids found. */
async function axeViolations(page: Page): Promise<string[]> {
  await transitionsDone(page);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function addCard(number: string) {
  const { page } = b;
  await page.getByRole('button', { name: 'Add card', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a card' });
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiration date').fill('12 / 34');
  await dialog.getByLabel('Security code').fill('123');
  return dialog;
}

/** The test's own customer on the Stripe portal, its browser routed to the stand-ins; `b` from then on. */
async function stella(customer: NewCustomer) {
  b = await customer({
    email: uniqueEmail('stripe'),
    fname: 'Stella',
    lname: 'Stripe',
    viewport: { width: 1280, height: 900 },
    target,
  });
  await routeStripe(b.context);
}

/**
 * The billing page with the test card 4242… saved through the Payment Element, as a customer saves
 * it, and made the default by Stripe's setup_intent.succeeded webhook.
 */
async function withSavedCard() {
  const { page } = b;
  await page.goto('/app/billing');
  const dialog = await addCard('4242 4242 4242 4242');
  await dialog.getByRole('button', { name: 'Save card' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.reload();
  await page.getByRole('listitem', { name: 'Visa ending in 4242' }).getByText('Default').waitFor();
}

/** A first subscription of 2 nodes with the saved card, active (its first invoice paid). */
async function withSubscription() {
  const { page } = b;
  await page.getByLabel('Number of nodes').fill('2');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByRole('article', { name: 'Node license' }).getByText('Active').waitFor();
}

describe('billing on Stripe, with Stripe.js', () => {
  it("adds a card through Stripe's Payment Element; the number goes to Stripe only", async ({ customer }) => {
    await stella(customer);
    const { page } = b;
    const portalBodies: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(portal.baseUrl)) portalBodies.push(r.postData() ?? '');
    });
    await page.goto('/app/billing');
    const dialog = await addCard('4242 4242 4242 4242');
    await screenshot(page, 'billing-stripe-add-card');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect.poll(() => page.getByText('Card added').count()).toBeGreaterThan(0);
    await expect.poll(() => dialog.count()).toBe(0);
    // The setup_intent.succeeded webhook makes the first card the default.
    await page.reload();
    const card = page.getByRole('listitem', { name: 'Visa ending in 4242' });
    await expect.poll(() => card.textContent()).toContain('Default');
    expect(portalBodies.some((body) => body.includes('4242424242424242'))).toBe(false);
    const confirm = wire.requests.find((r) => r.path.endsWith('/confirm') && r.path.startsWith('/v1/setup_intents/'));
    expect(confirm?.body).toMatchObject({ key: PUBLISHABLE_KEY, payment_method_data: { card: { number: '4242424242424242' } } });
  });

  it("shows Stripe's message for a declined card in the dialog", async ({ customer }) => {
    await stella(customer);
    await withSavedCard();
    const { page } = b;
    const dialog = await addCard('4000 0000 0000 0002');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Error: Your card was declined.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Cards' }).getByRole('listitem').count()).toBe(1);
  });

  it('buys a subscription with the saved card, and its license appears on /app/licenses', async ({ customer }) => {
    await stella(customer);
    await withSavedCard();
    const { page } = b;
    const nodes = page.getByLabel('Number of nodes');
    await nodes.fill('2');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const article = page.getByRole('article', { name: 'Node license' });
    await expect.poll(() => article.count()).toBe(1);
    await expect.poll(() => article.textContent()).toMatch(/Active/);
    // The key is text (monospace, with a copy button) beside a quiet link to the Licenses page.
    const key = (await article.getByText(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/).textContent())!.trim();
    expect(key).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/);
    // The wire server counts every customer of this file: the tests above buy nothing, so alone or in
    // file order this purchase is its only subscription (a shuffled order would need its own server).
    expect(wire.subscriptions.size).toBe(1);
    await page.goto('/app/licenses');
    await expect.poll(() => page.getByText(key).count()).toBeGreaterThan(0);
  });

  it('confirms a first payment the bank wants checked (3-D Secure), then shows the subscription active with its license', async ({
    customer,
  }) => {
    await stella(customer);
    await withSavedCard();
    await withSubscription();
    const { page } = b;
    await page.goto('/app/billing');
    const dialog = await addCard('4000 0025 0000 3155');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByRole('combobox', { name: 'Pay with' }).click();
    await page.getByRole('option', { name: 'Visa ending in 3155' }).click();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const prompt = page.getByRole('note').filter({ hasText: 'Confirm this payment' });
    await expect.poll(() => prompt.count()).toBe(1);
    await screenshot(page, 'billing-stripe-confirm-payment');
    expect(await page.getByRole('button', { name: 'Subscribe' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await prompt.getByRole('button', { name: 'Confirm payment' }).click();
    await expect.poll(() => page.getByText('Payment confirmed').count()).toBeGreaterThan(0);
    // The page polls until Stripe's invoice.paid webhook has made it active and issued its license.
    const articles = page.getByRole('article', { name: 'Node license' });
    await expect.poll(() => articles.count()).toBe(2);
    await expect
      .poll(async () => (await articles.allTextContents()).filter((t) => t.includes('Active')).length, { timeout: HANG_GUARD_MS })
      .toBe(2);
    await expect.poll(() => page.getByText('Issued once the first payment is confirmed').count()).toBe(0);
  });
});
