import { randomUUID } from 'node:crypto';
import { refundedStatus, type Invoice, type PaymentMethod } from '@portal/contract';
import type { Tx } from '../../db/client';
import { notFound } from '../../lib/errors';
import type { PrintableInvoice } from '../../providers/billing/gateway';
import { SYSTEM, toSubscription, type BillingContext } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import { endedNow } from './lifecycle';
import type { MailDocument } from '../email/email-job';
import { renderPdf, type PdfDocumentInput } from './invoice-pdf';

/** What an invoice's PDF shows: the invoice as issued, and its payment state now. */
export function invoicePdfInput(inv: PrintableInvoice, brand: string, refunded: number): PdfDocumentInput {
  const subtotal = inv.lines.reduce((s, l) => s + l.amount, 0);
  const total = subtotal + inv.taxAmount;
  const state = refundedStatus(inv.status, inv.amountPaid, refunded);
  const status =
    { paid: 'Paid', open: 'Unpaid', refunded: 'Refunded', partially_refunded: 'Partially refunded', void: 'Void' }[state] ??
    state;
  return {
    kind: 'invoice',
    number: inv.number,
    issuedAt: inv.createdAt,
    status,
    brand,
    seller: inv.seller,
    buyer: inv.buyer ?? { name: inv.customerName ?? '', email: inv.customerEmail, addressLines: [], country: null, taxId: null },
    currency: inv.currency,
    period: { start: inv.periodStart, end: inv.periodEnd },
    lines: inv.lines,
    subtotal,
    taxBreakdown: inv.taxBreakdown,
    tax: inv.taxAmount,
    total,
    creditApplied: Math.max(0, total - inv.amountDue),
    amountDue: inv.amountDue,
    amountPaid: inv.amountPaid,
    taxNote: inv.taxNote,
  };
}

/** Invoices are kept for the vendor's books; this replaces the customer's name on them. */
export const DELETED_CUSTOMER = 'Deleted customer';

/** The owner's invoices, their data export, and what account deletion asks of billing. */
export function createInvoicesAndExport(
  ctx: BillingContext,
  cards: { listPaymentMethods(userId: string): Promise<PaymentMethod[]> },
) {
  const { db, clock, log, licenses } = ctx;

  async function listSubscriptions(userId: string) {
    const rows = await repo.listSubscriptions(db, userId);
    const keys = rows.length ? await licenses.keysBySubscription(rows.map((r) => r.id)) : new Map<string, string>();
    return Promise.all(rows.map(async (r) => toSubscription(r, keys.get(r.id) ?? null, await ctx.paymentFailing(db, r))));
  }

  async function invoicePdfForStaff(invoiceId: string): Promise<{ filename: string; pdf: Buffer }> {
    const inv = await ctx.local.invoiceById(db, invoiceId);
    if (!inv) throw notFound('The invoice');
    const given = (await ctx.local.refundedTotals(db, [inv.id])).get(inv.id);
    return {
      filename: `${inv.number}.pdf`,
      pdf: await renderPdf(invoicePdfInput(inv, ctx.config.brand.name, given?.refunded ?? 0)),
    };
  }

  /** A credit note's PDF (the download's and the credit note e-mail's). */
  async function creditNotePdf(userId: string, id: string): Promise<{ filename: string; pdf: Buffer }> {
    const found = await ctx.local.creditNoteDocument(db, userId, id);
    if (!found) throw notFound('The credit note');
    const { note, invoice } = found;
    const pdf = await renderPdf({
      kind: 'credit_note',
      number: note.number,
      issuedAt: note.createdAt,
      status: note.kind === 'refund' ? 'Refunded to the card' : 'Credited to your account balance',
      brand: ctx.config.brand.name,
      seller: note.seller,
      buyer: note.buyer ?? {
        name: invoice.customerName ?? '',
        email: invoice.customerEmail,
        addressLines: [],
        country: null,
        taxId: null,
      },
      currency: note.currency,
      lines: [
        {
          description: `${note.kind === 'refund' ? 'Refund' : 'Credit'} on invoice ${invoice.number}`,
          quantity: 1,
          unitAmount: note.netAmount,
          amount: note.netAmount,
        },
      ],
      subtotal: note.netAmount,
      taxBreakdown: note.taxBreakdown,
      tax: note.taxAmount,
      total: note.total,
      taxNote: note.taxNote,
      refersTo: { number: invoice.number, issuedAt: invoice.createdAt },
    });
    return { filename: `${note.number}.pdf`, pdf };
  }

  return {
    listSubscriptions,

    async listInvoices(userId: string, subscriptionId: string): Promise<Invoice[]> {
      const sub = await repo.findSubscription(db, userId, subscriptionId);
      if (!sub) throw notFound('The subscription');
      return ctx.gatewayFor(sub.provider).listInvoices(db, sub);
    },

    /** The printable invoice (local engine), or the address of the provider's hosted invoice page. */
    async invoiceDocument(userId: string, id: string): Promise<{ invoice: PrintableInvoice } | { redirect: string }> {
      const customerId = await ctx.customerIdOf(db, userId);
      for (const gateway of ctx.gateways) {
        const doc = await gateway.invoiceDocument(db, { userId, customerId }, id);
        if (doc && 'printable' in doc) return { invoice: doc.printable };
        if (doc) return doc;
      }
      throw notFound('The invoice');
    },

    /**
     * The invoice as a PDF (built-in engine), or the address of the provider's own (Stripe). The
     * document shows what the invoice recorded when it was issued; only its payment state moves.
     */
    async invoicePdf(userId: string, id: string): Promise<{ filename: string; pdf: Buffer } | { redirect: string }> {
      const customerId = await ctx.customerIdOf(db, userId);
      for (const gateway of ctx.gateways) {
        const doc = await gateway.invoiceDocument(db, { userId, customerId }, id);
        if (!doc) continue;
        if (!('printable' in doc)) return doc;
        const inv = doc.printable;
        const given = (await ctx.local.refundedTotals(db, [inv.id])).get(inv.id);
        const pdf = await renderPdf(invoicePdfInput(inv, ctx.config.brand.name, given?.refunded ?? 0));
        return { filename: `${inv.number}.pdf`, pdf };
      }
      throw notFound('The invoice');
    },

    /** Any customer's invoice of the built-in engine as its PDF, the same bytes the customer gets (the console). */
    invoicePdfForStaff,

    /** A document of the built-in engine as an e-mail's attachment (its PDF, the bytes of its download). */
    async documentAttachment(d: MailDocument): Promise<{ filename: string; content: Buffer; contentType: string }> {
      const { filename, pdf } = d.kind === 'invoice' ? await invoicePdfForStaff(d.id) : await creditNotePdf(d.userId, d.id);
      return { filename, content: pdf, contentType: 'application/pdf' };
    },

    /** A credit note as a PDF (built-in engine). */
    creditNotePdf,

    /** Everything billing holds about the user, for the data export (cards without numbers). */
    async exportForUser(userId: string) {
      const subscriptions = await listSubscriptions(userId);
      let paymentMethods: PaymentMethod[] = [];
      try {
        paymentMethods = await cards.listPaymentMethods(userId);
      } catch (err) {
        log.warn({ err }, 'payment methods left out of the export');
      }
      const subRows = await repo.listSubscriptions(db, userId);
      const invoices: Record<string, unknown>[] = await ctx.local.exportInvoices(db, userId, subRows);
      // Stripe keeps its own invoices: read them live.
      if (ctx.stripe) invoices.push(...(await ctx.stripe.exportInvoices(db, userId, subRows)));
      return { paymentMethods, subscriptions, invoices };
    },

    /**
     * Account deletion: every subscription ends now without further charges and every card is
     * detached, inside the caller's transaction; a remote provider is told after the commit
     * through the outbox. The name and address on kept invoices are replaced.
     */
    async cancelAllNowForUser(tx: Tx, userId: string): Promise<void> {
      const now = clock.now();
      const opId = randomUUID();
      for (const sub of await repo.listSubscriptions(tx, userId)) {
        if (sub.status === 'canceled') continue;
        await ctx.gatewayFor(sub.provider).cancelNow(tx, sub, opId);
        await ctx.transition(tx, sub, endedNow(sub, now), {
          actor: SYSTEM,
          cause: { kind: 'ended_now', reason: 'account_deleted' },
        });
      }
      const customer = await repo.findCustomer(tx, userId);
      if (customer) await ctx.gatewayFor(customer.provider).detachAllCards(tx, customer.providerCustomerId, opId);
    },

    /** Account deletion, after everything else: invoices stay for the books under a neutral name. */
    async anonymiseForUser(tx: Tx, userId: string): Promise<void> {
      for (const gateway of ctx.gateways) await gateway.anonymiseCustomer(tx, userId, DELETED_CUSTOMER);
    },
  };
}
