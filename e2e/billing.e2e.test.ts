import type { BrowserContext, Page } from 'playwright-core';
import {
  baseUrl,
  describe,
  expect,
  it,
  screenshot,
  uniqueEmail,
  type Customer,
  type CustomerOptions,
  type Subscriber,
} from './fixtures';

type Capture = { type: string; event?: string; properties?: Record<string, unknown> };

/**
 * The billing story of a customer on the real server and its local billing engine: cards,
 * checkout, the four subscription modals (each change reloads the page), invoices. Each test has
 * its customer of its own (`start`), made as far along the story as the test begins: a card or a
 * subscription through the API, and the changes whose analytics a test counts through the same
 * modals a customer uses.
 */
let page: Page;
let licenseKey = '';
let stripeId = '';
/**
 * Every analytics call the page logs, kept across reloads: the no-op sink logs each call with
 * console.debug, and an init script hands it to the test before the page can reload.
 */
const recorded: Capture[] = [];

const events = (name: string) => recorded.filter((c) => c.type === 'capture' && c.event === name);
const dialog = (name: string) => page.getByRole('dialog', { name });

/** A modal's opening transition has ended (for screenshots). */
async function settled(name: string) {
  const modal = dialog(name);
  await modal.waitFor();
  await expect
    .poll(() => modal.evaluate((el) => [getComputedStyle(el).opacity, getComputedStyle(el).transform].join(' ')))
    .toMatch(/^1 (none|matrix\(1, 0, 0, 1, 0, 0\))$/);
}

async function openBilling() {
  await page.goto('/app/billing');
  await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
}

/** Submits a change modal and waits for the full page reload that follows a success. */
async function submitAndReload(modal: ReturnType<typeof dialog>) {
  const reloaded = page.waitForEvent('load');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await reloaded;
}

/** The subscription card (one per customer here). */
const subscription = () => page.getByRole('article');

/** Hands every analytics call of the context's pages to `recorded`, before any page loads. */
async function recordAnalytics(context: BrowserContext) {
  await context.exposeFunction('__recordAnalytics', (json: string) => {
    recorded.push(JSON.parse(json) as Capture);
  });
  await context.addInitScript(() => {
    const debug = console.debug.bind(console);
    console.debug = (...args: unknown[]) => {
      if (args[0] === '[analytics]') {
        (window as unknown as { __recordAnalytics: (s: string) => void }).__recordAnalytics(JSON.stringify(args[1]));
      }
      debug(...args);
    };
  });
}

/** Grace Hopper at 1280 × 900, a new address each time; `more` adds a card or a subscription. */
const grace = <O extends CustomerOptions>(more: O = {} as O) => ({
  email: uniqueEmail('billing'),
  fname: 'Grace',
  lname: 'Hopper',
  viewport: { width: 1280, height: 900 },
  ...more,
});

/** Makes the test's customer the one the helpers above act for, with an empty analytics record. */
async function start<C extends Customer>(made: Promise<C>): Promise<C> {
  const customer = await made;
  page = customer.page;
  recorded.length = 0;
  await recordAnalytics(customer.context);
  return customer;
}

/** A subscriber of 3 nodes, monthly, on the billing page: where the change tests begin. */
async function startSubscribed(made: Promise<Subscriber>) {
  ({ licenseKey, stripeId } = await start(made));
  await openBilling();
}

/** Makes a change through its modal as a customer does ('I confirm', Submit, the reload). */
async function change(button: string, title: string, prepare?: (modal: ReturnType<typeof dialog>) => Promise<void>) {
  await subscription().getByRole('button', { name: button }).click();
  const modal = dialog(title);
  await modal.getByLabel('Confirmation').waitFor();
  await prepare?.(modal);
  await modal.getByLabel('Confirmation').fill('I confirm');
  await submitAndReload(modal);
}

/** The charge preview has answered (the figures a customer confirms). */
const previewed = (modal: ReturnType<typeof dialog>) => modal.getByRole('group', { name: 'Charge preview' }).waitFor();
const changeQuantityTo5 = () =>
  change('Change quantity', 'Update Subscription Quantity', async (modal) => {
    await modal.getByLabel('New number of nodes').fill('5');
    await previewed(modal);
  });
const changeToYearly = () => change('Change billing period', 'Update Billing Period', previewed);
const cancelSubscription = () => change('Cancel subscription', 'Cancel Subscription');

/** Opens three changes and leaves each without making it: with Cancel, ×, and Escape. */
async function leaveThreeChanges() {
  await subscription().getByRole('button', { name: 'Change quantity' }).click();
  const quantity = dialog('Update Subscription Quantity');
  await quantity.getByLabel('Confirmation').waitFor();
  await quantity.getByRole('button', { name: 'Cancel' }).click();
  await quantity.waitFor({ state: 'hidden' });
  await leavePeriodAndCancel();
}

/** Leaves the billing-period change with × and the cancellation with Escape. */
async function leavePeriodAndCancel() {
  await subscription().getByRole('button', { name: 'Change billing period' }).click();
  const period = dialog('Update Billing Period');
  await period.getByLabel('Confirmation').waitFor();
  await period.getByRole('button', { name: 'Close' }).click();
  await period.waitFor({ state: 'hidden' });
  await subscription().getByRole('button', { name: 'Cancel subscription' }).click();
  const cancel = dialog('Cancel Subscription');
  await cancel.getByLabel('Confirmation').waitFor();
  await page.keyboard.press('Escape');
  await cancel.waitFor({ state: 'hidden' });
}

/** An unsafe billing call as the test's customer (same origin, JSON). */
async function billingApi(method: 'put' | 'patch', path: string, data: object) {
  const res = await page.context().request[method](`${baseUrl}/api/billing/subscriptions/${stripeId}${path}`, {
    headers: { origin: baseUrl },
    data,
  });
  if (res.status() !== 200) throw new Error(`${method} ${path} failed: ${res.status()} ${await res.text()}`);
}

describe('billing: cards and checkout', () => {
  it('shows the empty page: no cards, and the checkout as the next step', async ({ customer }) => {
    await start(customer(grace()));
    await openBilling();
    await page.getByRole('heading', { name: 'Start a subscription' }).waitFor();
    await page.getByText('No cards yet').waitFor();
    expect(await page.getByRole('button', { name: 'Subscribe' }).isDisabled()).toBe(true);
    await screenshot(page, 'billing-empty-1280');
  });

  it('checks the card fields inline and refuses a declined card with the server message', async ({ customer }) => {
    await start(customer(grace()));
    await openBilling();
    await page.getByRole('button', { name: 'Add card', exact: true }).click();
    const add = dialog('Add a card');
    await add.waitFor();
    await add.getByText('Test mode: use 4242 4242 4242 4242').waitFor();
    const number = add.getByLabel('Card number');
    await number.pressSequentially('4242424242424241');
    expect(await number.inputValue()).toBe('4242 4242 4242 4241');
    await add.getByLabel('Expiry date').pressSequentially('0120');
    expect(await add.getByLabel('Expiry date').inputValue()).toBe('01/20');
    await add.getByLabel('Security code').pressSequentially('12');
    await add.getByRole('button', { name: 'Save card' }).click();
    await add.getByText('Your card number is invalid.').waitFor();
    await add.getByText('Your card has expired.').waitFor();
    await add.getByText("Your card's security code is incomplete.").waitFor();
    await settled('Add a card');
    await screenshot(page, 'billing-add-card-invalid-1280');

    await number.fill('');
    await number.pressSequentially('4000 0000 0000 0002');
    await add.getByLabel('Expiry date').fill('');
    await add.getByLabel('Expiry date').pressSequentially('1234');
    await add.getByLabel('Security code').fill('123');
    await add.getByRole('button', { name: 'Save card' }).click();
    await expect.poll(() => add.getByRole('alert').textContent()).toBe('Error: Your card was declined.');
    await screenshot(page, 'billing-add-card-declined-1280');
  });

  it('adds the test card 4242 4242 4242 4242, marked as the default', async ({ customer }) => {
    await start(customer(grace()));
    await openBilling();
    await page.getByRole('button', { name: 'Add card', exact: true }).click();
    await dialog('Add a card').getByLabel('Expiry date').pressSequentially('1234');
    await dialog('Add a card').getByLabel('Security code').pressSequentially('123');
    const add = dialog('Add a card');
    const number = add.getByLabel('Card number');
    await number.fill('');
    await number.pressSequentially('4242 4242 4242 4242');
    await add.getByRole('button', { name: 'Save card' }).click();
    await add.waitFor({ state: 'hidden' });
    const card = page.getByRole('listitem', { name: 'Visa ending in 4242' });
    await card.waitFor();
    expect(await card.getByText('Default').isVisible()).toBe(true);
    expect(await card.getByText('Expires 12/2034').isVisible()).toBe(true);
  });

  it('prices the checkout from the plan (yearly saving shown) and buys 3 nodes monthly', async ({ customer }) => {
    await start(customer(grace({ card: true })));
    await openBilling();
    const price = page.getByRole('group', { name: 'Price' });
    expect(await page.getByRole('radio', { name: 'Billed monthly' }).isChecked()).toBe(true);
    const nodes = page.getByLabel('Number of nodes');
    await nodes.fill('3');
    await expect.poll(() => price.textContent()).toContain('3 × $25.00 per node');
    expect(await price.textContent()).toContain('Total per month$75.00');
    await page.getByText('Billed yearly', { exact: true }).click();
    await expect.poll(() => price.textContent()).toContain('Total per year$750.00');
    expect(await price.textContent()).toContain('You save $150.00 a year compared with monthly billing.');
    await page.getByText('Billed monthly', { exact: true }).click();
    await expect.poll(() => price.textContent()).toContain('Total per month$75.00');
    expect(await page.getByText('Paid with Visa ending in 4242.').isVisible()).toBe(true);
    await screenshot(page, 'billing-checkout-1280');

    await page.getByRole('button', { name: 'Subscribe' }).click();
    const card = subscription();
    await card.getByRole('heading', { name: 'Node license' }).waitFor();
    expect(await card.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('3 nodes, monthly').isVisible()).toBe(true);
    // The key is text (monospace, with a copy button); a quiet button leads to the Licenses page.
    licenseKey = (await card.getByText(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/).textContent()) ?? '';
    const keyLink = card.getByRole('link', { name: `Show license ${licenseKey} on the Licenses page` });
    expect(await keyLink.getAttribute('href')).toBe(`/app/licenses?highlight=${licenseKey}`);
    const subs = (await (await page.context().request.get(`${baseUrl}/api/billing/subscriptions/`)).json()) as {
      items: Array<{ stripeId: string }>;
    };
    stripeId = subs.items[0]!.stripeId;
    await card.getByRole('table', { name: 'Invoices' }).getByRole('link', { name: /^View/ }).waitFor();
    await screenshot(page, 'billing-subscribed-1280');
  });

  it('shows the new license on the Licenses page', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await subscription()
      .getByRole('link', { name: `Show license ${licenseKey} on the Licenses page` })
      .click();
    // The page takes ?highlight= into license.highlight and drops it from the address at once, so
    // waiting for the address with it would race; the page itself is what counts.
    await page.waitForURL((url) => url.pathname === '/app/licenses');
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    await expect.poll(() => page.getByText(licenseKey, { exact: true }).first().isVisible()).toBe(true);
    await openBilling();
  });

  it('refuses to remove the only card paying for the subscription', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await page.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
    const confirm = dialog('Remove card?');
    await confirm.getByRole('button', { name: 'Remove card' }).click();
    await expect
      .poll(() => confirm.getByRole('alert').textContent())
      .toBe('Error: This card pays for an active subscription. Add another card first, or cancel the subscription.');
    await confirm.getByRole('button', { name: 'Keep card' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});

describe('billing: the four subscription modals', () => {
  it('validates the new quantity and the confirmation, and records a cancelled change', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await subscription().getByRole('button', { name: 'Change quantity' }).click();
    const modal = dialog('Update Subscription Quantity');
    await modal.getByText('You will be charged immediately for the new quantity.').waitFor();
    const field = modal.getByLabel('New number of nodes');
    const submit = modal.getByRole('button', { name: 'Submit' });
    const fieldError = async () => (await field.getAttribute('aria-invalid')) === 'true';

    // The field starts at the current quantity (3), which is no change yet.
    expect(await field.inputValue()).toBe('3');
    await submit.click();
    await modal.getByText('Quantity must be different from the current one', { exact: true }).waitFor();
    await modal.getByText('Please type "I confirm" to proceed').waitFor();
    await field.fill('');
    await submit.click();
    await modal.getByText('Enter the new number of nodes', { exact: true }).waitFor();
    for (const [value, message] of [
      ['0', 'The quantity must be at least 1'],
      ['100', 'The quantity can be at most 99'],
      ['2.5', 'The quantity must be a whole number'],
      ['3', 'Quantity must be different from the current one'],
    ] as const) {
      await field.fill(value);
      await submit.click();
      await modal.getByText(message, { exact: true }).waitFor();
      expect(await fieldError(), value).toBe(true);
    }
    await modal.getByLabel('Confirmation').fill('I agree');
    await submit.click();
    await modal.getByText('Please type "I confirm" to proceed').waitFor();
    await screenshot(page, 'billing-modal-quantity-errors-1280');

    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'hidden' });
    const sink = (await page.evaluate(() => (window as unknown as { __analytics?: unknown[] }).__analytics ?? [])) as Capture[];
    expect(sink.filter((c) => c.event === 'subscription_change_cancelled')).toEqual([
      {
        type: 'capture',
        event: 'subscription_change_cancelled',
        properties: { type: 'quantity', stripe_subscription_id: stripeId },
      },
    ]);

    // Closed with × or Escape, a change is just as cancelled: one more event each.
    const cancelled = { type: 'capture', event: 'subscription_change_cancelled' };
    await leavePeriodAndCancel();
    await expect.poll(() => events('subscription_change_cancelled').length).toBe(3);
    expect(events('subscription_change_cancelled')).toEqual([
      { ...cancelled, properties: { type: 'quantity', stripe_subscription_id: stripeId } },
      { ...cancelled, properties: { type: 'billing_period', stripe_subscription_id: stripeId } },
      { ...cancelled, properties: { type: 'cancel', stripe_subscription_id: stripeId } },
    ]);
  });

  it('changes the quantity after showing the charge now and the next renewal', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await subscription().getByRole('button', { name: 'Change quantity' }).click();
    const modal = dialog('Update Subscription Quantity');
    await modal.getByLabel('New number of nodes').fill('5');
    const preview = modal.getByRole('group', { name: 'Charge preview' });
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/Charged now\$\d+\.\d\d/);
    expect(await preview.textContent()).toMatch(/Next renewal on [A-Z][a-z]{2} \d{1,2}, \d{4}\$125\.00/);
    await modal.getByLabel('Confirmation').fill('i confirm');
    await screenshot(page, 'billing-modal-quantity-1280');

    // Hold the change for a moment so the submitting state can be seen before the reload.
    await page.route('**/api/billing/subscriptions/*/quantity', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    const reloaded = page.waitForEvent('load');
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.getByRole('button', { name: 'Submitting, please wait...' }).waitFor();
    await reloaded;
    await expect.poll(() => events('subscription_changed').length).toBe(1);
    await page.unroute('**/api/billing/subscriptions/*/quantity');
    expect(events('subscription_changed')[0]!.properties).toEqual({
      type: 'quantity',
      stripe_subscription_id: stripeId,
      old_quantity: 3,
      new_quantity: 5,
    });
    await subscription().getByText('5 nodes, monthly').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('switches the billing period to yearly', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await changeQuantityTo5();
    await subscription().getByRole('button', { name: 'Change billing period' }).click();
    const modal = dialog('Update Billing Period');
    await modal.getByText('You will be charged immediately for the new billing period.').waitFor();
    await modal.getByRole('group', { name: 'Charge preview' }).waitFor();
    expect(await modal.getByText('Paying yearly saves $250.00 a year (17%).').isVisible()).toBe(true);
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.getByText('Please type "I confirm" to proceed').waitFor();
    await modal.getByLabel('Confirmation').fill('I CONFIRM');
    await screenshot(page, 'billing-modal-period-1280');
    await submitAndReload(modal);
    await expect.poll(() => events('subscription_changed').length).toBe(2);
    expect(events('subscription_changed')[1]!.properties).toEqual({
      type: 'billing_period',
      stripe_subscription_id: stripeId,
      old_interval: 'month',
      new_interval: 'year',
    });
    await subscription().getByText('5 nodes, yearly').waitFor();
  });

  it('cancels at the end of the period: access until the date, with Re-activate beside it', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await changeQuantityTo5();
    await changeToYearly();
    await subscription().getByRole('button', { name: 'Cancel subscription' }).click();
    const modal = dialog('Cancel Subscription');
    await modal.getByText('You will lose access to the products at the end of the billing period.').waitFor();
    await modal.getByLabel('Confirmation').fill('I confirm');
    await settled('Cancel Subscription');
    await screenshot(page, 'billing-modal-cancel-1280');
    await submitAndReload(modal);
    await expect.poll(() => events('subscription_changed').length).toBe(3);
    expect(events('subscription_changed')[2]!.properties).toEqual({ type: 'cancel', stripe_subscription_id: stripeId });
    const card = subscription();
    await card.getByText(/access until/).waitFor();
    expect(await card.getByText('Cancelled', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Change quantity' }).count()).toBe(0);
    await screenshot(page, 'billing-cancelled-1280');
  });

  it('re-activates the cancelled subscription', async ({ customer }) => {
    await startSubscribed(customer(grace({ subscription: 3 })));
    await leaveThreeChanges();
    await changeQuantityTo5();
    await changeToYearly();
    await cancelSubscription();
    await subscription().getByRole('button', { name: 'Re-activate' }).click();
    const modal = dialog('Re-activate subscription');
    await modal.getByText(/Next renewal on/).waitFor();
    await modal.getByLabel('Confirmation').fill('I confirm');
    await screenshot(page, 'billing-modal-reactivate-1280');
    await submitAndReload(modal);
    await expect.poll(() => events('subscription_changed').length).toBe(4);
    expect(events('subscription_changed')[3]!.properties).toEqual({ type: 'reactivate', stripe_subscription_id: stripeId });
    await subscription().getByText('Active', { exact: true }).waitFor();
    // The four changes made (each modal closed by the reload) recorded no cancellation.
    expect(events('subscription_change_cancelled')).toHaveLength(3);
    expect(
      await subscription()
        .getByText(/access until/)
        .count(),
    ).toBe(0);
  });

  it('lists the invoices (the purchase and both prorations) with printable pages', async ({ customer }) => {
    ({ licenseKey, stripeId } = await start(customer(grace({ subscription: 3 }))));
    await billingApi('put', '/quantity', { quantity: 5 });
    await billingApi('patch', '/', { interval: 'year' });
    await openBilling();
    const table = subscription().getByRole('table', { name: 'Invoices' });
    const links = table.getByRole('link', { name: /^View/ });
    // Wait for the rows themselves: while loading, the table shows skeleton rows.
    await expect.poll(() => links.count()).toBe(3);
    expect(await table.getByRole('row').count()).toBe(4); // header + 3 invoices
    expect(await links.first().getAttribute('target')).toBe('_blank');
    const href = (await links.last().getAttribute('href'))!;
    const printable = await page.context().request.get(new URL(href, baseUrl).toString());
    expect(printable.status()).toBe(200);
    expect(printable.headers()['content-type']).toContain('text/html');
    const number = (await table.getByRole('row').last().getByRole('cell').first().textContent())!;
    expect(await printable.text()).toContain(number);
    await screenshot(page, 'billing-invoices-1280');
  });
});

describe('billing on a phone and in the dark', () => {
  it('fits 390 px: the page and each modal', async ({ customer }) => {
    ({ licenseKey, stripeId } = await start(customer(grace({ subscription: 3 }))));
    await page.setViewportSize({ width: 390, height: 844 });
    await openBilling();
    await subscription().waitFor();
    await screenshot(page, 'billing-page-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    for (const [button, title, name] of [
      ['Change quantity', 'Update Subscription Quantity', 'quantity'],
      ['Change billing period', 'Update Billing Period', 'period'],
      ['Cancel subscription', 'Cancel Subscription', 'cancel'],
    ] as const) {
      await subscription().getByRole('button', { name: button }).click();
      const modal = dialog(title);
      await modal.waitFor();
      if (name === 'quantity') await modal.getByLabel('New number of nodes').fill('2');
      if (name !== 'cancel') await modal.getByRole('group', { name: 'Charge preview' }).waitFor();
      await settled(title);
      await screenshot(page, `billing-modal-${name}-390`);
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'hidden' });
    }
    await page.getByRole('button', { name: 'Add card', exact: true }).click();
    await dialog('Add a card').getByLabel('Card number').waitFor();
    await settled('Add a card');
    await screenshot(page, 'billing-add-card-390');
    await dialog('Add a card').getByRole('button', { name: 'Cancel' }).click();

    const cancelled = await page
      .context()
      .request.delete(`${baseUrl}/api/billing/subscriptions/${stripeId}/`, { headers: { origin: baseUrl } });
    expect(cancelled.status()).toBe(200);
    await openBilling();
    await subscription()
      .getByText(/access until/)
      .waitFor();
    await screenshot(page, 'billing-cancelled-390');
    await subscription().getByRole('button', { name: 'Re-activate' }).click();
    await dialog('Re-activate subscription').getByLabel('Confirmation').waitFor();
    await settled('Re-activate subscription');
    await screenshot(page, 'billing-modal-reactivate-390');
    await dialog('Re-activate subscription').getByRole('button', { name: 'Cancel' }).click();
  });

  it('fits 390 px for a new customer too (empty page)', async ({ customer }) => {
    const other = await customer({ email: uniqueEmail('billing-phone'), viewport: { width: 390, height: 844 } });
    await other.page.goto('/app/billing');
    await other.page.getByRole('heading', { name: 'Start a subscription' }).waitFor();
    await other.page.getByText('No cards yet').waitFor();
    await screenshot(other.page, 'billing-empty-390');
    expect(await other.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });

  it('reads well in the dark colour scheme', async ({ customer }) => {
    await start(customer(grace({ subscription: 3 })));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await openBilling();
    await subscription().waitFor();
    await screenshot(page, 'billing-page-dark-1280');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
