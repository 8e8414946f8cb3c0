import { refundedStatus, type Invoice } from '@portal/contract';
import type { Tx } from '../../../db/client';
import type { PaymentGateway, Receipt } from '../gateway';
import { localRepository as repo, type CreditNoteRow, type InvoiceRow } from './local.repository';

export const invoiceUrl = (id: string) => `/api/billing/invoices/${id}`;
export const creditNoteUrl = (id: string) => `/api/billing/credit-notes/${id}/pdf`;

/** What every view of an invoice shows. */
const amounts = (i: InvoiceRow) => ({
  id: i.id,
  number: i.number,
  status: i.status,
  amountDue: i.amountDue,
  amountPaid: i.amountPaid,
  currency: i.currency,
});
/** Net, tax and total of a taxed invoice (the lines are net; total = net + tax, before account credit); nothing where no tax applies. */
const totals = (i: InvoiceRow) => {
  if (!taxedRegime(i.taxRegime)) return {};
  const subtotal = i.lines.reduce((s, l) => s + l.amount, 0);
  return { subtotal, tax: i.taxAmount, total: subtotal + i.taxAmount };
};
/** Whether a regime puts tax figures on documents (an invoice of a seller not registered for VAT shows none). */
export const taxedRegime = (regime: string | null) => regime !== null && regime !== 'none';

export const toReceipt = (i: InvoiceRow): Receipt => ({
  ...amounts(i),
  createdAt: i.createdAt,
  lines: i.lines.map((l) => ({
    description: l.description,
    quantity: l.quantity,
    amount: l.amount,
    periodStart: new Date(l.periodStart),
    periodEnd: new Date(l.periodEnd),
  })),
  url: invoiceUrl(i.id),
});

/** The credit notes of an invoice as its list entry shows them (absent when it has none). */
function creditNotesOf(notes: CreditNoteRow[], invoiceId: string) {
  const own = notes.filter((n) => n.invoiceId === invoiceId);
  if (own.length === 0) return {};
  return {
    creditNotes: own.map((n) => ({
      id: n.id,
      number: n.number,
      kind: n.kind as 'refund' | 'credit',
      amount: n.total,
      created: n.createdAt.toISOString(),
      url: creditNoteUrl(n.id),
    })),
  };
}

/** The local engine's invoices as the customer reads them: the list, one document, the export, anonymising. */
export const localInvoices = {
  async listInvoices(tx, sub) {
    const rows = await repo.listInvoices(tx, sub.id);
    const refunded = await repo.refundedTotals(
      tx,
      rows.map((i) => i.id),
    );
    const notes = await repo.creditNotesOf(
      tx,
      rows.map((i) => i.id),
    );
    return rows.map((i): Invoice => ({
      ...amounts(i),
      ...totals(i),
      ...creditNotesOf(notes, i.id),
      status: refundedStatus(i.status, i.amountPaid, refunded.get(i.id)?.refunded ?? 0),
      created: i.createdAt.toISOString(),
      periodStart: i.periodStart.toISOString(),
      periodEnd: i.periodEnd.toISOString(),
      url: invoiceUrl(i.id),
    }));
  },

  async invoiceDocument(tx, owner, id) {
    const inv = await repo.findInvoiceForUser(tx, owner.userId, id);
    return inv ? { printable: inv } : undefined;
  },

  async exportInvoices(tx, userId, subs) {
    const providerIds = new Map(subs.map((s) => [s.id, s.providerId]));
    const rows = await repo.listInvoicesForUser(tx, userId);
    const refunded = await repo.refundedTotals(
      tx,
      rows.map((i) => i.id),
    );
    return rows.map((i) => ({
      id: i.id,
      number: i.number,
      subscription: i.subscriptionId ? (providerIds.get(i.subscriptionId) ?? null) : null,
      status: i.status,
      currency: i.currency,
      amountDue: i.amountDue,
      amountPaid: i.amountPaid,
      amountRefunded: refunded.get(i.id)?.refunded ?? 0,
      amountCredited: refunded.get(i.id)?.credited ?? 0,
      periodStart: i.periodStart.toISOString(),
      periodEnd: i.periodEnd.toISOString(),
      created: i.createdAt.toISOString(),
      lines: i.lines,
    }));
  },

  async anonymiseCustomer(tx, userId, replacement) {
    await repo.anonymiseInvoices(tx, userId, replacement);
  },
} satisfies Pick<PaymentGateway, 'listInvoices' | 'invoiceDocument' | 'exportInvoices' | 'anonymiseCustomer'>;

/** What only the built-in engine has: its credit notes, for their documents. */
export const localDocuments = {
  /** The owner's credit note (local engine only; Stripe issues its own). */
  async creditNoteDocument(tx: Tx, userId: string, id: string) {
    const note = await repo.findCreditNoteForUser(tx, userId, id);
    if (!note) return undefined;
    const invoice = await repo.findInvoiceById(tx, note.invoiceId);
    return invoice ? { note, invoice } : undefined;
  },

  /** Any customer's invoice by id (the vendor's console). */
  invoiceById: (tx: Tx, id: string) => repo.findInvoiceById(tx, id),

  /** Refunded and credited totals of an invoice (its status on documents). */
  refundedTotals: (tx: Tx, ids: string[]) => repo.refundedTotals(tx, ids),
};
