import { describe, expect, it } from './console-fixtures';
import { expectLogged, openFromSearch } from './console-helpers';
import { screenshot, transitionsDone, uniqueEmail } from './fixtures';

/**
 * Billing staff correct a customer's billing details with a reason (the card shows them, the staff
 * log has the reason), then read the tax report of the last days with the customer's invoice in it.
 */
describe('console billing details and tax report', () => {
  it('edits the billing details with a reason, then shows the tax report of the period', async ({ staff, customer }) => {
    const email = uniqueEmail('taxdetails');
    await customer({ subscription: 1, email, fname: 'Ada', lname: 'Ledger' });
    const { page } = await staff('billing');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Ledger');

    await page.getByRole('button', { name: 'Edit billing details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit billing details' });
    await dialog.getByLabel('Country').fill('Germany');
    await page.getByRole('option', { name: 'Germany' }).click();
    await dialog.getByRole('textbox', { name: 'Company name' }).fill('Ledger GmbH');
    await dialog.getByRole('textbox', { name: 'City' }).fill('Berlin');
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Company address sent by e-mail, ticket 7001');
    await transitionsDone(page);
    await screenshot(page, 'console-billing-details-dialog-1280-light');
    await dialog.getByRole('button', { name: 'Save billing details' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Ledger GmbH', { exact: true }).waitFor();
    await page.getByText('Germany', { exact: true }).waitFor();
    await expectLogged(page, 'Company address sent by e-mail, ticket 7001');

    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/reports/tax?from=${from}&to=${today}`);
    await page.getByRole('heading', { level: 1, name: 'Tax report' }).waitFor();
    const table = page.getByRole('table', { name: 'Tax by regime, country and rate' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(1);
    await transitionsDone(page);
    await screenshot(page, 'console-tax-report-1280-light');
    const csv = await page.context().request.get(`/api/console/reports/tax?from=${from}&to=${today}&format=csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['cache-control']).toBe('no-store');
    expect(await csv.text()).toMatch(/^currency,regime,country,ratePercent/);
  });
});
