import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '../../lib/errors';
import type { HeldInvoice, RefundableInvoice } from '../../providers/billing/gateway';
import type { HeldInvoiceObject } from '../audit/audit-events';
import type { WithinTx } from '../../db/client';
import type { BillingContext } from './billing-context';
import { formatMoney } from './billing-documents';
import { billingRepository as repo } from './billing.repository';

/** What went back: money to the card (refund), or to the customer's balance for their next charges (credit). */
export type GiveBack = 'refund' | 'credit';
export type GivenBack = { userId: string; number: string; amount: number; currency: string; left: number };

const WORD = { refund: 'refunded', credit: 'credited' } as const;

/** The caller's writes that belong to a refund or credit (the staff audit row), in its transaction. */
type GiveBackWithin = (tx: Parameters<WithinTx>[0], given: GivenBack) => Promise<void>;

/**
 * How much of an invoice may go back now: what was paid minus what was refunded or credited
 * already. Billing checks it (one rule for both providers and both ways) before a gateway is asked.
 */
export function refundableAmount(inv: RefundableInvoice, requested: number | undefined, kind: GiveBack = 'refund'): number {
  const money = (n: number) => formatMoney(n, inv.currency);
  if (inv.status !== 'paid' || inv.amountPaid <= 0) {
    throw new AppError('CONFLICT', `Invoice ${inv.number} has no payment to give back`);
  }
  const left = inv.amountPaid - inv.amountReturned;
  if (left <= 0) throw new AppError('CONFLICT', `Invoice ${inv.number} has already been refunded or credited in full`);
  if (requested !== undefined && requested > left) {
    throw new AppError(
      'CONFLICT',
      `At most ${money(left)} of invoice ${inv.number} can be ${WORD[kind]}: ${money(inv.amountPaid)} was paid` +
        (inv.amountReturned > 0 ? ` and ${money(inv.amountReturned)} has been refunded or credited already` : ''),
    );
  }
  return requested ?? left;
}

/** An invoice only the provider holds (Stripe's), as its webhook events carry it (`customerId`: our user). */
export function heldInvoiceObject(
  inv: Pick<RefundableInvoice, 'id' | 'number' | 'status' | 'currency' | 'amountPaid'>,
  held: HeldInvoice,
  customerId: string | null,
  amountReturned: number,
): HeldInvoiceObject {
  return {
    id: inv.id,
    number: inv.number,
    customerId,
    subscriptionId: held.subscriptionId,
    status: inv.status,
    currency: inv.currency,
    amountDue: held.amountDue,
    amountPaid: inv.amountPaid,
    amountReturned,
    periodStart: held.periodStart.toISOString(),
    periodEnd: held.periodEnd.toISOString(),
    createdAt: held.createdAt.toISOString(),
  };
}

/**
 * Refunds and credits (the vendor's console): part of a paid invoice goes back through the gateway
 * that holds the invoice, in one transaction with the customer's activity entry.
 */
export function createRefunds(ctx: BillingContext) {
  const { db, audit } = ctx;

  /**
   * Gives back `amount` (minor units; all that is left when undefined) of invoice `invoiceId`,
   * whoever's it is; `actor` is who the customer's activity names. Unknown or no longer a
   * customer's: 404; nothing (more) to give back: 409.
   */
  async function giveBack(
    kind: GiveBack,
    invoiceId: string,
    amount: number | undefined,
    actor: string,
    within?: GiveBackWithin,
  ): Promise<GivenBack> {
    const opId = randomUUID();
    return db.transaction(async (tx) => {
      for (const gateway of ctx.gateways) {
        const inv = await gateway.findRefundable(tx, invoiceId);
        if (!inv) continue;
        const owner = inv.owner;
        const userId =
          owner && 'userId' in owner
            ? owner.userId
            : owner
              ? (await repo.findCustomerByProviderId(tx, owner.customerId))?.userId
              : undefined;
        if (!userId) break;
        const wanted = refundableAmount(inv, amount, kind);
        const made = await gateway[kind](tx, inv, wanted, opId);
        const left = inv.amountPaid - inv.amountReturned - made.amount;
        await audit.record(tx, {
          type: kind === 'refund' ? 'invoice_refunded' : 'invoice_credited',
          userId,
          actor,
          invoice: {
            id: inv.id,
            number: inv.number,
            held: inv.held && heldInvoiceObject(inv, inv.held, userId, inv.amountReturned + made.amount),
          },
          amount: made.amount,
          currency: made.currency,
          inFull: left <= 0,
        });
        const note = made.creditNote;
        const billTo = note && (await ctx.billToFor(tx, userId));
        if (note && billTo) {
          // The credit note goes where the invoice's receipt went, with its PDF (ADR 114).
          const data = {
            number: note.number,
            invoiceNumber: inv.number,
            kind,
            currency: made.currency,
            total: note.total,
            issuedAt: note.createdAt.toISOString(),
            url: ctx.billingUrl,
          };
          const attach = [{ kind: 'credit_note' as const, id: note.id, userId }];
          for (const to of await ctx.billingAddressesOf(tx, billTo)) {
            await ctx.sendMail(tx, { to, template: 'credit-note', data, attach });
          }
        }
        const given = { userId, number: inv.number, amount: made.amount, currency: made.currency, left };
        await within?.(tx, given);
        return given;
      }
      throw notFound('The invoice');
    });
  }

  return {
    refundInvoice: (invoiceId: string, amount: number | undefined, actor: string, within?: GiveBackWithin) =>
      giveBack('refund', invoiceId, amount, actor, within),
    creditInvoice: (invoiceId: string, amount: number | undefined, actor: string, within?: GiveBackWithin) =>
      giveBack('credit', invoiceId, amount, actor, within),
  };
}
