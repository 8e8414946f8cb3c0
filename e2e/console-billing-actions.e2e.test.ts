import { expectAccessible } from './axe';
import { describe, expect, it } from './console-fixtures';
import { act, expectLogged, openFromSearch, section } from './console-helpers';
import { uniqueEmail } from './fixtures';

/**
 * Billing's subscription actions in the browser, each with its reason: cancel at period end,
 * re-activate, cancel now; and what each role is shown (support: no billing actions; billing: no
 * license or account actions). Each test makes its own customer.
 */
describe('console subscription actions (billing)', () => {
  it('cancels at period end, re-activates, then cancels now', async ({ staff, customer }) => {
    const email = uniqueEmail('cancel');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Cancel' });
    const { page } = await staff('billing');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Cancel');
    const subscriptions = section(page, 'Subscriptions');
    const menu = subscriptions.getByRole('button', { name: `Actions for subscription ${buyer.stripeId}` });

    await act(page, {
      opener: menu,
      item: 'Cancel at period end…',
      dialog: 'Cancel at period end',
      reason: 'Customer moves to another product, ticket 6100',
      axe: 'console cancel-at-period-end dialog',
    });
    await subscriptions.getByText('Cancels at period end', { exact: true }).waitFor();
    await subscriptions.getByText(/· Ends /).waitFor();
    await expectLogged(page, 'Customer moves to another product, ticket 6100');

    await act(page, {
      opener: menu,
      item: 'Re-activate…',
      dialog: 'Re-activate subscription',
      confirm: 'Re-activate',
      reason: 'Customer changed their mind, ticket 6100',
    });
    await subscriptions.getByText('Active', { exact: true }).waitFor();
    await subscriptions.getByText(/· Renews /).waitFor();
    await expectLogged(page, 'Customer changed their mind, ticket 6100');

    await act(page, {
      opener: menu,
      item: 'Cancel now…',
      dialog: 'Cancel now',
      reason: 'Fraudulent purchase confirmed by the bank',
      axe: 'console cancel-now dialog',
    });
    await subscriptions.getByText('Ended', { exact: true }).waitFor();
    await expectLogged(page, 'Fraudulent purchase confirmed by the bank');
    // An ended subscription has nothing left to do; its license has expired.
    expect(await menu.count()).toBe(0);
    await section(page, 'Licenses')
      .getByText(/^Expired /)
      .waitFor();

    // The customer sees the subscription ended too.
    const own = await buyer.page.request.get('/api/billing/subscriptions/');
    expect(own.status()).toBe(200);
    const { items } = (await own.json()) as { items: { stripeId: string; status: string }[] };
    expect(items.map((s) => [s.stripeId, s.status])).toEqual([[buyer.stripeId, 'canceled']]);
  });

  it('shows each role only its own actions', async ({ staff, customer }) => {
    const email = uniqueEmail('roles');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Roles' });
    const activated = await buyer.page.request.post(`/api/licenses/${buyer.licenseKey}/activate`, {
      data: { fingerprint: `roles-${Date.now()}`, hostname: 'pve-roles' },
    });
    expect(activated.status()).toBe(201);

    const billing = (await staff('billing')).page;
    await billing.goto('/overview');
    await openFromSearch(billing, email, new RegExp(email), 'Ada Roles');
    await section(billing, 'Subscriptions')
      .getByRole('button', { name: /Actions for subscription/ })
      .waitFor();
    await expectAccessible(billing, 'console customer page, billing');
    expect(await billing.getByRole('button', { name: /Actions for license/ }).count()).toBe(0);
    expect(await billing.getByRole('button', { name: /Actions for node/ }).count()).toBe(0);
    expect(await billing.getByRole('button', { name: 'Send sign-in link' }).count()).toBe(0);
    expect(await billing.getByRole('button', { name: 'More actions' }).count()).toBe(0);

    const support = (await staff('support')).page;
    await support.goto('/overview');
    await openFromSearch(support, email, new RegExp(email), 'Ada Roles');
    await section(support, 'Licenses')
      .getByRole('button', { name: /Actions for license/ })
      .waitFor();
    await section(support, 'Nodes')
      .getByRole('button', { name: /Actions for node/ })
      .waitFor();
    expect(await support.getByRole('button', { name: /Actions for subscription/ }).count()).toBe(0);
    await support.getByRole('button', { name: 'More actions' }).click();
    await support.getByRole('menuitem', { name: 'End all sessions…' }).waitFor();
    expect(await support.getByRole('menuitem', { name: /Delete customer/ }).count()).toBe(0);
    await support.keyboard.press('Escape');
    // Neither sees the staff page.
    expect(await support.getByRole('link', { name: 'Staff' }).count()).toBe(0);
    expect(await billing.getByRole('link', { name: 'Staff' }).count()).toBe(0);
  });
});
