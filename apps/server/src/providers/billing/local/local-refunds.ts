import type { Tx } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import type { PaymentGateway, RefundableInvoice } from '../gateway';
import { localRepository as repo } from './local.repository';

/**
 * Refunds and credits of the local engine: a row in its `invoice_refunds` table, written in
 * billing's transaction with the invoice row locked. There is no card network behind the local
 * engine, so neither can fail once billing has checked the amount; a credit is taken off the
 * customer's next charges by creditBalance.
 */
export function createLocalRefunds(deps: { clock: Clock; newId: (kind: 'refund' | 'credit') => string }) {
  async function giveBack(tx: Tx, kind: 'refund' | 'credit', invoice: RefundableInvoice, amount: number, opId: string) {
    const id = deps.newId(kind);
    await repo.insertRefund(tx, {
      id,
      invoiceId: invoice.id,
      amount,
      currency: invoice.currency,
      kind,
      opId,
      createdAt: deps.clock.now(),
    });
    return { id, amount, currency: invoice.currency };
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
