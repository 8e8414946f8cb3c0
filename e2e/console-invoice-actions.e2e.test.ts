import { describe, expect, it } from './console-fixtures';
import { act, expectLogged, openFromSearch, section } from './console-helpers';
import { uniqueEmail } from './fixtures';

type Invoice = { id: string; number: string; status: string; amountPaid: number };

/**
 * Billing's invoice actions in the browser, each with its reason: credit part of an invoice to the
 * customer's balance, then refund part of it to the card; the invoice's status, the staff log and
 * the customer's own activity and invoice list follow. The test makes its own customer.
 */
describe('console invoice actions (billing)', () => {
  it('credits part of an invoice to the balance, then refunds part of it to the card', async ({ staff, customer }) => {
    const email = uniqueEmail('refund');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Refund' });
    const invoicesOfBuyer = async (): Promise<Invoice[]> => {
      const res = await buyer.page.request.get(`/api/billing/subscriptions/${buyer.stripeId}/invoices`);
      expect(res.status()).toBe(200);
      return ((await res.json()) as { items: Invoice[] }).items;
    };
    const [invoice] = await invoicesOfBuyer();
    expect(invoice).toMatchObject({ status: 'paid', amountPaid: 2500 });

    const { page } = await staff('billing');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Refund');
    const subscriptions = section(page, 'Subscriptions');
    const menu = subscriptions.getByRole('button', { name: `Actions for invoice ${invoice!.number}` });

    await act(page, {
      opener: menu,
      item: 'Credit to balance…',
      dialog: 'Credit invoice',
      confirm: 'Credit',
      reason: 'Two days of downtime, ticket 8100',
      fill: async (dialog) => dialog.getByRole('textbox', { name: /Amount to credit/ }).fill('5'),
      axe: 'console credit dialog',
    });
    await expectLogged(page, 'Two days of downtime, ticket 8100');
    // A credit leaves the payment as it was: the invoice still reads paid.
    expect((await invoicesOfBuyer())[0]).toMatchObject({ status: 'paid' });

    await act(page, {
      opener: menu,
      item: 'Refund…',
      dialog: 'Refund invoice',
      confirm: 'Refund',
      reason: 'Charged for a node never used, ticket 8101',
      fill: async (dialog) => dialog.getByRole('textbox', { name: /Amount to refund/ }).fill('10'),
      axe: 'console refund dialog',
    });
    await subscriptions.getByText('Partially refunded', { exact: true }).waitFor();
    await expectLogged(page, 'Charged for a node never used, ticket 8101');
    expect((await invoicesOfBuyer())[0]).toMatchObject({ status: 'partially_refunded', amountPaid: 2500 });

    // More than is left ($25 paid, $5 credited, $10 refunded): refused with what is left, nothing changes.
    await menu.click();
    await page.getByRole('menuitem', { name: 'Refund…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund invoice' });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Goodwill');
    await dialog.getByRole('textbox', { name: /Amount to refund/ }).fill('20');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByText(/At most \$10\.00 of invoice/).waitFor();
    expect((await invoicesOfBuyer())[0]).toMatchObject({ status: 'partially_refunded' });
  });
});
