import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startViesStandIn } from '../apps/server/test/vies-stand-in';
import { expectAccessible } from './axe';
import { describe, expect, it, screenshot, transitionsDone, type CustomerOptions, type Target } from './fixtures';
import { startPortal, type Portal } from './portal-server';

/**
 * Issue 23 in the portal: a customer's billing details (the form on the billing page, checked with
 * the contract's messages), the VAT in the checkout's price (the built-in tax engine of a German
 * seller registered for VAT), and the invoice as a PDF. The shared test server sells without tax,
 * so this file starts a server of its own with the seller's settings, its VAT numbers checked by a
 * local VIES stand-in that knows one French company.
 */

/** A French company's VAT number the VIES stand-in knows as valid. */
const FRENCH_VAT = 'FR40303265045';

let vies: Awaited<ReturnType<typeof startViesStandIn>> | undefined;
let portal: Portal | undefined;
let target: Target;
beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid(FRENCH_VAT, 'EXEMPLE SAS');
  portal = await startPortal({
    SELLER_NAME: 'Vendor GmbH',
    SELLER_ADDRESS: 'Alexanderplatz 1 | 10178 Berlin',
    SELLER_COUNTRY: 'DE',
    SELLER_TAX_ID: 'DE123456789',
    SELLER_REGISTRATION: 'Amtsgericht Berlin HRB 12345',
    SELLER_VAT_REGISTERED: 'true',
    VIES_URL: vies.url,
    // A price whose VAT rounds: 3 × €19.99 = €59.97, 19 % of it €11.3943, charged €11.39.
    CURRENCY: 'eur',
    PRICE_MONTH: '1999',
    PRICE_YEAR: '19990',
  });
  target = { baseUrl: portal.baseUrl, dataDir: portal.dataDir };
});
afterAll(async () => {
  await portal?.stop();
  await vies?.close();
});

/** Erika Mustermann on this file's server, a new address each time. */
const erika = (more: CustomerOptions = {}): CustomerOptions => ({
  fname: 'Erika',
  lname: 'Mustermann',
  viewport: { width: 1280, height: 900 },
  target,
  ...more,
});

async function openBilling(page: Page) {
  await page.goto('/app/billing');
  await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
}

const detailsForm = (page: Page) => page.getByRole('form', { name: 'Billing details' });

/** Picks `option` in one of the form's selects, as a customer does: open, type when it searches, choose. */
async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  // The tax ID type is a plain select (no typing): its list opens on the click.
  if (await field.isEditable()) await field.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => field.inputValue()).toBe(option);
}

type Details = { country?: string; company?: string; line1?: string; postalCode?: string; city?: string; vat?: string };

/** Fills the billing details form (without saving it). */
async function fillDetails(page: Page, d: Details) {
  const form = detailsForm(page);
  if (d.country) await choose(page, form.getByRole('combobox', { name: 'Country', exact: true }), d.country);
  if (d.company) await form.getByLabel('Company name').fill(d.company);
  if (d.line1) await form.getByLabel('Address line 1').fill(d.line1);
  if (d.postalCode) await form.getByLabel('Postal code').fill(d.postalCode);
  if (d.city) await form.getByLabel('City').fill(d.city);
  if (d.vat) {
    await choose(page, form.getByRole('combobox', { name: 'Tax ID type' }), 'EU VAT number');
    await form.getByRole('textbox', { name: 'Tax ID', exact: true }).fill(d.vat);
  }
}

/** Saves the form and waits for the server's answer and the confirmation. */
async function saveDetails(page: Page) {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/billing/details'));
  await detailsForm(page).getByRole('button', { name: 'Save billing details' }).click();
  expect((await saved).status()).toBe(200);
  await page.getByText('Billing details saved').waitFor();
}

const muster: Details = {
  country: 'Germany',
  company: 'Muster GmbH',
  line1: 'Musterstraße 12',
  postalCode: '10115',
  city: 'Berlin',
};

/** The rows of the checkout's tax table (Net, VAT, Total), each as "label amount". */
async function taxRows(page: Page) {
  const rows = page.getByRole('group', { name: 'Price' }).getByRole('table', { name: 'Tax' }).getByRole('row');
  await rows.first().waitFor();
  return (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
}

/** The page's total per period, as shown under the tax rows. */
const totalPerMonth = async (page: Page) =>
  (
    await page
      .getByRole('group', { name: 'Price' })
      .getByText(/^Total per month/)
      .evaluate((el) => el.parentElement!.innerText)
  )
    .replace(/\s+/g, ' ')
    .trim();

const shots = path.resolve(import.meta.dirname, '../.tmp/screenshots');

/** Photographs one part of the page (under .tmp/screenshots, beside the whole pages). */
async function photograph(part: Locator, name: string) {
  await transitionsDone(part.page());
  await part.screenshot({ path: path.join(shots, `${name}.png`) });
}

describe('billing details: the form', () => {
  it('refuses a missing country and a badly formatted VAT number with the contract’s messages, and saves nothing', async ({
    customer,
  }) => {
    const { page } = await customer(erika());
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/billing/details')) puts.push(r.url());
    });
    await openBilling(page);
    const form = detailsForm(page);
    const country = form.getByRole('combobox', { name: 'Country', exact: true });
    await form.getByLabel('Company name').fill('Muster GmbH');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await form.getByText('Choose the country of your billing address', { exact: true }).waitFor();
    expect(await country.getAttribute('aria-invalid')).toBe('true');

    await choose(page, country, 'Germany');
    await choose(page, form.getByRole('combobox', { name: 'Tax ID type' }), 'EU VAT number');
    const vat = form.getByRole('textbox', { name: 'Tax ID', exact: true });
    await vat.fill('DE12345');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await form.getByText('This is not a valid VAT number format: expected DE followed by 9 digits.', { exact: true }).waitFor();
    expect(await vat.getAttribute('aria-invalid')).toBe('true');
    // A French number on a German address: the number must belong to the billing country.
    await vat.fill('FR40303265045');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await form
      .getByText('An EU VAT number for this address starts with DE (the country of the billing address).', { exact: true })
      .waitFor();

    expect(puts).toEqual([]);
    const stored = await page.context().request.get(`${target.baseUrl}/api/billing/details`);
    expect(await stored.json()).toEqual({ details: null });
  });
});

describe('billing details: the taxed checkout and the invoice PDF', () => {
  it('a German buyer sees net, 19 % VAT and the total to the cent, buys, and downloads the invoice as a PDF', async ({
    customer,
  }) => {
    const { page } = await customer(erika({ card: true }));
    await openBilling(page);
    const price = page.getByRole('group', { name: 'Price' });
    // No billing details yet: the checkout asks for the country, and no tax can be shown.
    await page.getByRole('combobox', { name: 'Billing country' }).waitFor();
    expect(await price.getByText('VAT is added according to your billing country.').isVisible()).toBe(true);

    await fillDetails(page, muster);
    await saveDetails(page);
    await page.getByLabel('Number of nodes').fill('3');
    await expect.poll(() => taxRows(page)).toEqual(['Net €59.97', 'VAT 19% €11.39', 'Total €71.36']);
    expect(await totalPerMonth(page)).toBe('Total per month €71.36');
    expect(await page.getByRole('combobox', { name: 'Billing country' }).count()).toBe(0);
    await screenshot(page, 'billing-details-checkout-domestic-1280');

    await page.getByRole('button', { name: 'Subscribe' }).click();
    const subscription = page.getByRole('article');
    await subscription.getByText('3 nodes, monthly').waitFor();
    const invoices = subscription.getByRole('table', { name: 'Invoices' });
    const pdf = invoices.getByRole('link', { name: /^PDF of invoice INV-\d+$/ });
    await pdf.waitFor();
    expect(await invoices.getByRole('row').nth(1).innerText()).toContain('€71.36');
    const href = (await pdf.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/billing\/invoices\/[^/]+\/pdf$/);

    const downloading = page.waitForEvent('download');
    await pdf.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The same address answers as a PDF document.
    const answered = await page.context().request.get(new URL(href, target.baseUrl).toString());
    expect(answered.headers()['content-type']).toBe('application/pdf');
    expect(Buffer.compare(await answered.body(), bytes)).toBe(0);
    await screenshot(page, 'billing-details-invoices-1280');
  });

  it('an EU business buyer whose VAT number VIES finds valid sees reverse charge and no VAT', async ({ customer }) => {
    const { page } = await customer(erika({ card: true }));
    await openBilling(page);
    await fillDetails(page, {
      country: 'France',
      company: 'Exemple SAS',
      line1: '1 rue de Rivoli',
      postalCode: '75001',
      city: 'Paris',
      vat: 'FR 40 303 265 045',
    });
    await saveDetails(page);
    const status = detailsForm(page).getByRole('status');
    await status.getByText('Valid', { exact: true }).waitFor();
    expect(await status.innerText()).toContain(`${FRENCH_VAT}: Confirmed by VIES`);

    await page.getByLabel('Number of nodes').fill('3');
    await expect.poll(() => taxRows(page)).toEqual(['Net €59.97', 'VAT 0% €0.00', 'Total €59.97']);
    expect(await totalPerMonth(page)).toBe('Total per month €59.97');
    await page
      .getByRole('group', { name: 'Price' })
      .getByText('Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).')
      .waitFor();
    await screenshot(page, 'billing-details-checkout-reverse-charge-1280');
  });
});

describe('billing details: accessibility and screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`is accessible and fits 1280 and 390 px in the ${scheme} colour scheme`, async ({ customer }) => {
      const { page } = await customer(erika({ colorScheme: scheme, card: true }));
      await openBilling(page);
      const card = page.getByRole('region', { name: 'Billing details' });
      await detailsForm(page).getByRole('combobox', { name: 'Country', exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(scheme);
      await photograph(card, `billing-details-empty-1280-${scheme}`);

      // The form's messages.
      await fillDetails(page, { company: 'Muster GmbH' });
      await detailsForm(page).getByRole('button', { name: 'Save billing details' }).click();
      await detailsForm(page).getByText('Choose the country of your billing address', { exact: true }).waitFor();
      await expectAccessible(page, `billing details with a missing country (${scheme})`);
      await photograph(card, `billing-details-errors-1280-${scheme}`);

      // Filled in, not saved yet.
      await fillDetails(page, { ...muster, vat: 'DE 123 456 789' });
      await expectAccessible(page, `billing details filled in (${scheme})`);
      await photograph(card, `billing-details-filled-1280-${scheme}`);

      // Saved: the VAT number's check (VIES does not know this one) and the taxed checkout beside it.
      await saveDetails(page);
      await detailsForm(page).getByRole('status').getByText('Not valid', { exact: true }).waitFor();
      await page.getByRole('group', { name: 'Price' }).getByRole('table', { name: 'Tax' }).waitFor();
      await expectAccessible(page, `billing details saved, the taxed checkout (${scheme})`);
      await photograph(card, `billing-details-saved-1280-${scheme}`);
      await screenshot(page, `billing-details-page-1280-${scheme}`);

      await page.setViewportSize({ width: 390, height: 844 });
      await openBilling(page);
      await detailsForm(page).getByRole('status').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await photograph(card, `billing-details-saved-390-${scheme}`);
      await photograph(page.getByRole('group', { name: 'Price' }), `billing-details-checkout-390-${scheme}`);
      await detailsForm(page).getByLabel('Company name').fill('');
      // The saved EU VAT number's type stays chosen.
      await detailsForm(page).getByRole('textbox', { name: 'Tax ID', exact: true }).fill('DE12');
      await detailsForm(page).getByRole('button', { name: 'Save billing details' }).click();
      await detailsForm(page)
        .getByText('This is not a valid VAT number format: expected DE followed by 9 digits.', { exact: true })
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await expectAccessible(page, `billing details with a bad VAT number at 390 px (${scheme})`);
      await photograph(card, `billing-details-errors-390-${scheme}`);
    });
  }
});
