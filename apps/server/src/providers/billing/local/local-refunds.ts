import type { Tx } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import type { PaymentGateway, RefundableInvoice } from '../gateway';
import { localRepository as repo } from './local.repository';

/** The net part of a gross amount at `rateBp` (rounded half away from zero; the tax is the rest). */
export function netOfGross(gross: number, rateBp: number): number {
  const n = Math.abs(gross) * 10000;
  const d = 10000 + rateBp;
  const net = Math.floor((2 * n + d) / (2 * d));
  return gross < 0 ? -net : net;
}

/**
 * Refunds and credits of the local engine: a row in its `invoice_refunds` table, written in
 * billing's transaction with the invoice row locked. There is no card network behind the local
 * engine, so neither can fail once billing has checked the amount; a credit is taken off the
 * customer's next charges by creditBalance.
 */
export function createLocalRefunds(deps: { clock: Clock; newId: (kind: 'refund' | 'credit') => string }) {
  async function giveBack(tx: Tx, kind: 'refund' | 'credit', invoice: RefundableInvoice, amount: number, opId: string) {
    const id = deps.newId(kind);
    const now = deps.clock.now();
    await repo.insertRefund(tx, {
      id,
      invoiceId: invoice.id,
      amount,
      currency: invoice.currency,
      kind,
      opId,
      createdAt: now,
    });
    // Every refund or credit issues a credit note correcting its invoice: the amount given back,
    // split into net and tax at the invoice's rate, with the parties as the invoice names them.
    const inv = await repo.findInvoiceById(tx, invoice.id);
    const rateBp = inv?.taxBreakdown[0]?.rateBp;
    const net = rateBp === undefined ? amount : netOfGross(amount, rateBp);
    const note = await repo.insertCreditNote(tx, {
      invoiceId: invoice.id,
      refundId: id,
      userId: inv?.userId ?? null,
      kind,
      currency: invoice.currency,
      netAmount: net,
      taxAmount: amount - net,
      total: amount,
      taxBreakdown: rateBp === undefined ? [] : [{ rateBp, net, tax: amount - net }],
      taxNote: inv?.taxNote ?? null,
      buyer: inv?.buyer ?? null,
      seller: inv?.seller ?? null,
      createdAt: now,
    });
    return {
      id,
      amount,
      currency: invoice.currency,
      creditNote: { id: note.id, number: note.number, total: note.total, createdAt: note.createdAt },
    };
  }

  return {
    async findRefundable(tx, id) {
      const found = await repo.lockInvoiceWithRefunds(tx, id);
      if (!found) return undefined;
      const { invoice: i, given } = found;
      return {
        id: i.id,
        number: i.number,
        status: i.status,
        currency: i.currency,
        amountPaid: i.amountPaid,
        amountReturned: given.refunded + given.credited,
        owner: i.userId ? { userId: i.userId } : null,
      };
    },

    refund: (tx, invoice, amount, opId) => giveBack(tx, 'refund', invoice, amount, opId),
    credit: (tx, invoice, amount, opId) => giveBack(tx, 'credit', invoice, amount, opId),
  } satisfies Pick<PaymentGateway, 'findRefundable' | 'refund' | 'credit'>;
}
