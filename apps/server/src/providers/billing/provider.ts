import type { ChangePreview, Interval, Invoice, PaymentMethod } from '@portal/contract';
import type { Tx } from '../../db/client';
import type { CustomerRow, InvoiceRow, SubscriptionRow } from '../../modules/billing/billing.repository';

/** Who pays: the portal user behind a provider customer. */
export type BillTo = { userId: string; email: string; name: string };

export type ChangeOutcome = {
  /** Our subscriptions row after the change (the local engine's own row, or the mirror of Stripe's). */
  row: SubscriptionRow;
  /** Local engine: the invoice the change produced (the receipt is e-mailed from it). */
  invoice?: InvoiceRow;
  /** Stripe: the first payment needs the customer's action in the browser (3-D Secure). */
  clientSecret?: string;
  /** Stripe: the row as a webhook had already mirrored it, when that happened first. */
  before?: SubscriptionRow;
};

export type PlannedChange = { quantity?: number; interval?: Interval };

/**
 * The payment side of billing. Two implementations: the local engine (in our database; every call
 * joins the caller's transaction, so a failed charge rolls the whole change back) and Stripe (API
 * calls with idempotency keys derived from our operation id; the transaction is used for our mirror
 * rows and for outbox jobs). Business rules - who may change what, licenses, audit, e-mails - stay in
 * the billing service, so both behave the same to the customer.
 */
export interface BillingProvider {
  readonly kind: 'local' | 'stripe';
  readonly publishableKey?: string;
  /** The user's provider customer, created on first use; its row stays locked until the transaction ends. */
  lockCustomer(tx: Tx, billTo: BillTo): Promise<CustomerRow>;
  createSetupIntent(tx: Tx, customerId: string, opId: string): Promise<string>;
  listCards(tx: Tx, customerId: string): Promise<PaymentMethod[]>;
  setDefaultCard(tx: Tx, customerId: string, cardId: string, opId: string): Promise<void>;
  setSubscriptionCard(tx: Tx, sub: SubscriptionRow, cardId: string, opId: string): Promise<SubscriptionRow>;
  detachCard(tx: Tx, customerId: string, cardId: string, opId: string): Promise<void>;
  createSubscription(
    tx: Tx,
    input: {
      customer: CustomerRow;
      billTo: BillTo;
      interval: Interval;
      quantity: number;
      cardId: string | null;
      checkoutKey: string;
      opId: string;
    },
  ): Promise<ChangeOutcome>;
  changeQuantity(tx: Tx, sub: SubscriptionRow, quantity: number, billTo: BillTo, opId: string): Promise<ChangeOutcome>;
  changeInterval(tx: Tx, sub: SubscriptionRow, interval: Interval, billTo: BillTo, opId: string): Promise<ChangeOutcome>;
  setCancelAtPeriodEnd(tx: Tx, sub: SubscriptionRow, cancel: boolean, opId: string): Promise<SubscriptionRow>;
  /** Ends the subscription at once with no further charge (account deletion). */
  cancelNow(tx: Tx, sub: SubscriptionRow, opId: string): Promise<SubscriptionRow>;
  detachAllCards(tx: Tx, customerId: string, opId: string): Promise<void>;
  preview(tx: Tx, sub: SubscriptionRow, change: PlannedChange, customerId: string): Promise<ChangePreview>;
  listInvoices(tx: Tx, sub: SubscriptionRow): Promise<Invoice[]>;
}
