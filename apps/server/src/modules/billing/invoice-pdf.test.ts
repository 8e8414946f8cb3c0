import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startViesStandIn } from '../../../test/vies-stand-in';
import { addCard, checkout, invoicesOf, signIn } from './billing-test-helpers';

/**
 * Invoices and credit notes as PDF documents: every field a business buyer books, read back with
 * pdftotext (Debian's poppler-utils), the same bytes when rendered again, and only for their owner.
 */

let t: TestApp;
let vies: Awaited<ReturnType<typeof startViesStandIn>>;
const dir = process.env.KEEP_PDF ?? mkdtempSync(path.join(tmpdir(), 'invoice-pdf-'));
const START = new Date('2025-01-31T10:00:00.000Z');

beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid('FR12345678901', 'Client SARL');
  t = await buildTestApp({
    VIES_URL: vies.url,
    CURRENCY: 'eur',
    BRAND_NAME: 'Vendor Portal',
    SELLER_NAME: 'Vendor GmbH',
    SELLER_ADDRESS: 'Alexanderplatz 1 | 10178 Berlin',
    SELLER_COUNTRY: 'DE',
    SELLER_TAX_ID: 'DE811111111',
    SELLER_REGISTRATION: 'Amtsgericht Berlin HRB 12345',
    INVOICE_FOOTER: 'IBAN DE89 3704 0044 0532 0130 00\\nPayable within 14 days.',
    SELLER_VAT_REGISTERED: 'true',
  });
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
  if (!process.env.KEEP_PDF) rmSync(dir, { recursive: true, force: true });
});

/** The text of a PDF, as pdftotext reads it (layout kept, so a label and its value share a line). */
function textOf(pdf: Buffer, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

async function customer(email: string, details: Record<string, unknown>, quantity: number) {
  t.clock.set(START);
  const cookie = await signIn(t, email);
  expect(
    (await t.app.inject({ method: 'PUT', url: '/api/billing/details', headers: { cookie }, payload: details })).statusCode,
  ).toBe(200);
  expect((await addCard(t, cookie)).statusCode).toBe(201);
  const res = await checkout(t, cookie, { interval: 'month', quantity });
  expect(res.statusCode, res.body).toBe(201);
  const stripeId = res.json().subscription.stripeId as string;
  const [invoice] = await invoicesOf(t, stripeId);
  return { cookie, stripeId, invoice: invoice! };
}

const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('invoice PDF', () => {
  it('carries seller, buyer, tax IDs, lines, tax per rate, totals and the payment state, and renders the same bytes again', async () => {
    const { cookie, invoice } = await customer(
      'pdf-domestic@example.com',
      {
        legalName: 'Kunde GmbH',
        country: 'DE',
        line1: 'Musterweg 5',
        postalCode: '80331',
        city: 'München',
        taxId: { type: 'eu_vat', value: 'DE123456789' },
      },
      3,
    );
    const res = await get(cookie, `/api/billing/invoices/${invoice.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = squash(textOf(res.rawPayload, 'domestic'));
    for (const field of [
      'Vendor GmbH',
      'Alexanderplatz 1',
      '10178 Berlin',
      'Germany',
      'VAT ID: DE811111111',
      'Amtsgericht Berlin HRB 12345',
      'Invoice',
      `Invoice number: ${invoice.number}`,
      'Issue date: January 31, 2025',
      'Service period: January 31, 2025 – February 28, 2025',
      'Status: Paid',
      'Billed to',
      'Kunde GmbH',
      'Attn. Test User',
      'Musterweg 5',
      '80331 München',
      'VAT ID: DE123456789',
      '3 × Node license (monthly)',
      '€25.00',
      'Net amount €75.00',
      'VAT 19 % on €75.00 €14.25',
      'Total €89.25',
      'Amount due €89.25',
      'Amount paid €89.25',
      'IBAN DE89 3704 0044 0532 0130 00',
      'Payable within 14 days.',
    ]) {
      expect(text, field).toContain(field);
    }
    const again = await get(cookie, `/api/billing/invoices/${invoice.id}/pdf`);
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
  });

  it('says "Reverse charge" on an EU cross-border B2B invoice', async () => {
    const { cookie, invoice } = await customer(
      'pdf-rc@example.com',
      {
        legalName: 'Client SARL',
        country: 'FR',
        line1: '1 rue de Rivoli',
        postalCode: '75001',
        city: 'Paris',
        taxId: { type: 'eu_vat', value: 'FR12345678901' },
      },
      2,
    );
    const text = squash(textOf((await get(cookie, `/api/billing/invoices/${invoice.id}/pdf`)).rawPayload, 'rc'));
    for (const field of [
      'Client SARL',
      'France',
      'VAT ID: FR12345678901',
      'VAT 0 % on €50.00 €0.00',
      'Total €50.00',
      'Reverse charge: VAT to be accounted for by the recipient',
    ]) {
      expect(text, field).toContain(field);
    }
  });

  it("is another customer's: 404; a malformed id: 400", async () => {
    const { invoice } = await customer('pdf-owner@example.com', { country: 'DE' }, 1);
    const other = await signIn(t, 'pdf-other@example.com');
    const res = await get(other, `/api/billing/invoices/${invoice.id}/pdf`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'The invoice was not found' });
    expect((await get(other, `/api/billing/invoices/${'x'.repeat(300)}/pdf`)).statusCode).toBe(400);
  });
});

describe('credit note', () => {
  it('is issued for a refund made in the console, numbered in its own series, listed with its invoice, as a PDF referring to it', async () => {
    const { cookie, stripeId, invoice } = await customer(
      'pdf-refund@example.com',
      { legalName: 'Kunde GmbH', country: 'DE', city: 'Köln' },
      2,
    );
    // What the console's refund calls (POST /api/console/invoices/:invoiceId/refund): €11.90 of €59.50.
    await t.app.ctx.services.billing.refundInvoice(invoice.id, 1190, 'vendor-staff');
    const list = (await get(cookie, `/api/billing/subscriptions/${stripeId}/invoices`)).json().items;
    const notes = list[0].creditNotes;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'refund', amount: 1190 });
    expect(notes[0].number).toMatch(/^CN-\d+$/);
    const res = await get(cookie, notes[0].url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = squash(textOf(res.rawPayload, 'credit-note'));
    for (const field of [
      'Credit note',
      `Credit note number: ${notes[0].number}`,
      `Corrects invoice: ${invoice.number} of January 31, 2025`,
      'Vendor GmbH',
      'VAT ID: DE811111111',
      'Credited to',
      'Kunde GmbH',
      `Refund on invoice ${invoice.number}`,
      'Net amount €10.00',
      'VAT 19 % on €10.00 €1.90',
      'Total credited €11.90',
      'Status: Refunded to the card',
    ]) {
      expect(text, field).toContain(field);
    }
    // A second refund takes the next number of the series.
    await t.app.ctx.services.billing.refundInvoice(invoice.id, 595, 'vendor-staff');
    const again = (await get(cookie, `/api/billing/subscriptions/${stripeId}/invoices`)).json().items[0].creditNotes;
    expect(Number(again[1].number.slice(3))).toBe(Number(notes[0].number.slice(3)) + 1);
    // The invoice's own PDF now says how it was paid back.
    expect(squash(textOf((await get(cookie, `/api/billing/invoices/${invoice.id}/pdf`)).rawPayload, 'refunded'))).toContain(
      'Status: Partially refunded',
    );
    // Another customer's credit note: 404.
    const other = await signIn(t, 'pdf-refund-other@example.com');
    expect((await get(other, notes[0].url)).statusCode).toBe(404);
  });
});
