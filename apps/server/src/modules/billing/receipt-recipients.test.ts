import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { creditNotes } from '../../db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../../test/console-helpers';
import { parseMail, startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-receiver';
import { addCard, checkout, DAY, flushOutbox, invoicesOf, signIn } from './billing-test-helpers';

/**
 * Receipts of the built-in engine, through a real SMTP server: each carries its invoice's PDF (the
 * bytes of its download) and goes to the account's address and, as separate messages, to every
 * extra invoice recipient of the billing details as they are when the receipt is sent (ADR 114).
 * A refund or credit in the console e-mails its credit note the same way.
 */

let t: ConsoleTestApp;
let staff: string;
let rx: SmtpReceiver;
const dir = mkdtempSync(path.join(tmpdir(), 'receipt-pdf-'));
const START = new Date('2025-03-01T10:00:00.000Z');

beforeAll(async () => {
  rx = await startSmtpReceiver();
  t = await buildConsoleTestApp({ SMTP_URL: rx.url, MAIL_FROM: 'Portal <billing@portal.test>', CURRENCY: 'eur' });
  await t.addStaff('money@vendor.example', 'billing');
  staff = await t.signInStaff('money@vendor.example');
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

function textOf(pdf: Buffer, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

const putDetails = (cookie: string, recipients: string[]) =>
  t.app.inject({ method: 'PUT', url: '/api/billing/details', headers: { cookie }, payload: { country: 'DE', recipients } });

/** The messages the SMTP server received with this subject. */
function received(subject: string) {
  return rx.messages
    .map((m) => ({ envelopeTo: m.envelopeTo, mail: parseMail(m.raw) }))
    .filter((m) => m.mail.headers.get('subject') === subject);
}

/** Checks that each receipt of the invoice carries the PDF the customer downloads, and answers where they went. */
const expectReceipts = (cookie: string, invoice: { id: string; number: string }) =>
  expectDocumentMails(
    cookie,
    `Your receipt for invoice ${invoice.number}`,
    `/api/billing/invoices/${invoice.id}/pdf`,
    invoice.number,
  );

/** Checks each message of `subject`: one address, the document's PDF as downloaded; answers where they went. */
async function expectDocumentMails(cookie: string, subject: string, download: string, number: string) {
  const res = await t.app.inject({ method: 'GET', url: download, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  const mails = received(subject);
  for (const { envelopeTo, mail } of mails) {
    // One address per message: no recipient sees another's.
    expect(envelopeTo).toHaveLength(1);
    expect(mail.headers.get('to')).toBe(envelopeTo[0]);
    expect(mail.headers.has('cc')).toBe(false);
    const pdfs = mail.parts.filter((p) => p.contentType === 'application/pdf');
    expect(pdfs).toHaveLength(1);
    expect(pdfs[0]!.filename).toBe(`${number}.pdf`);
    expect(pdfs[0]!.bytes.equals(res.rawPayload)).toBe(true);
    expect(textOf(pdfs[0]!.bytes, `${number}-${envelopeTo[0]}`)).toContain(number);
    expect(mail.parts.find((p) => p.contentType === 'text/plain')?.body).toContain(number);
  }
  return mails.map((r) => r.envelopeTo[0]).sort();
}

async function buy(email: string, recipients: string[] | null) {
  t.clock.set(START);
  const cookie = await signIn(t, email);
  if (recipients) expect((await putDetails(cookie, recipients)).statusCode).toBe(200);
  expect((await addCard(t, cookie)).statusCode).toBe(201);
  const res = await checkout(t, cookie, { interval: 'month', quantity: 2 });
  expect(res.statusCode, res.body).toBe(201);
  const stripeId = res.json().subscription.stripeId as string;
  await flushOutbox(t);
  const [invoice] = await invoicesOf(t, stripeId);
  return { cookie, stripeId, invoice: invoice! };
}

describe('receipts and credit notes of the built-in engine by e-mail', () => {
  it('go to the account and to each invoice recipient, each with the invoice PDF of the download', async () => {
    const { cookie, invoice } = await buy('owner-r@example.com', ['ap@example.com', 'cfo@example.com']);
    expect(await expectReceipts(cookie, invoice)).toEqual(['ap@example.com', 'cfo@example.com', 'owner-r@example.com']);
  });

  it('go to the account alone when the billing details name no recipients', async () => {
    const { cookie, invoice } = await buy('solo-r@example.com', null);
    expect(await expectReceipts(cookie, invoice)).toEqual(['solo-r@example.com']);
  });

  it('go to the recipients the billing details name when the receipt is sent, not those of an earlier invoice', async () => {
    const { cookie, stripeId, invoice } = await buy('renew-r@example.com', ['old-ap@example.com']);
    expect(await expectReceipts(cookie, invoice)).toEqual(['old-ap@example.com', 'renew-r@example.com']);

    expect((await putDetails(cookie, ['new-ap@example.com', 'controller@example.com'])).statusCode).toBe(200);
    t.clock.set(new Date(START.getTime() + 32 * DAY));
    expect(await t.app.ctx.services.billing.runRenewals()).toBeGreaterThanOrEqual(1);
    await flushOutbox(t);
    const invoices = await invoicesOf(t, stripeId);
    expect(invoices).toHaveLength(2);
    const renewal = invoices[1]!;
    expect(renewal.number).not.toBe(invoice.number);
    // The session of a month ago has expired: the owner signs in again to download the renewal's invoice.
    const later = await signIn(t, 'renew-r@example.com');
    expect(await expectReceipts(later, renewal)).toEqual(['controller@example.com', 'new-ap@example.com', 'renew-r@example.com']);
  });

  it('of a refund in the console: the credit note with its PDF, to the account and each recipient', async () => {
    const { cookie, invoice } = await buy('refund-r@example.com', ['ap-refund@example.com']);
    const refund = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${invoice.id}/refund`,
      headers: { cookie: staff },
      payload: { reason: 'Goodwill, ticket #7', amount: 500 },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    await flushOutbox(t);
    const [note] = await t.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoice.id));
    expect(
      await expectDocumentMails(
        cookie,
        `Credit note ${note!.number} for invoice ${invoice.number}`,
        `/api/billing/credit-notes/${note!.id}/pdf`,
        note!.number,
      ),
    ).toEqual(['ap-refund@example.com', 'refund-r@example.com']);
  });
});
