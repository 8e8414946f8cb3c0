import type { ChangePreview, CheckoutPreview, Interval, Invoice, PaymentMethod } from '@portal/contract';
import type { Tx } from '../../db/client';
import type { InvoiceLine, InvoiceParty, subscriptions, TaxBreakdownRow } from '../../db/schema/index';

/**
 * The payment side of billing, as the billing domain calls it. Two implementations: the local
 * engine (`local/`, in our database: every call joins the caller's transaction, so a refused
 * charge rolls the whole change back) and Stripe (`stripe/`, API calls with idempotency keys
 * derived from our operation id). A gateway owns its own tables and queries; the billing domain
 * owns customers, subscriptions and what follows from a change (licenses, activity, e-mails), and
 * writes the subscription state a gateway answers onto its own record. Nothing here imports the
 * billing module: the arrow points from modules/ to providers/ only (lint enforces it).
 */
export interface PaymentGateway {
  readonly kind: ProviderKind;
  readonly publishableKey?: string | undefined;

  /** The provider's customer for a user, made on first use (idempotent per user). */
  createCustomer(billTo: BillTo): Promise<string>;

  // ---- cards ----
  createSetupIntent(tx: Tx, customerId: string, opId: string): Promise<string>;
  listCards(tx: Tx, customerId: string): Promise<PaymentMethod[]>;
  setDefaultCard(tx: Tx, customerId: string, cardId: string, opId: string): Promise<void>;
  /** The card a subscription is charged to from now on. */
  setSubscriptionCard(tx: Tx, sub: SubscriptionRecord, cardId: string, opId: string): Promise<StatePatch>;
  detachCard(tx: Tx, customerId: string, cardId: string, opId: string): Promise<void>;
  /** Account deletion: every card goes (the provider is told after the commit where it is remote). */
  detachAllCards(tx: Tx, customerId: string, opId: string): Promise<void>;

  // ---- charges ----
  /**
   * Starts a subscription and takes its first payment. `save` writes the billing domain's record
   * (the gateway calls it once, as soon as it knows the state) and answers it, with the record as
   * it was when a webhook had mirrored it first.
   */
  createSubscription(tx: Tx, input: NewSubscriptionInput, save: SaveSubscription): Promise<CreatedSubscription>;
  changeQuantity(tx: Tx, sub: SubscriptionRecord, quantity: number, billTo: BillTo, opId: string): Promise<Charge>;
  changeInterval(tx: Tx, sub: SubscriptionRecord, interval: Interval, billTo: BillTo, opId: string): Promise<Charge>;
  setCancelAtPeriodEnd(tx: Tx, sub: SubscriptionRecord, cancel: boolean, opId: string): Promise<StatePatch>;
  /** Ends the subscription at the provider with no further charge (billing ends its own record). */
  cancelNow(tx: Tx, sub: SubscriptionRecord, opId: string): Promise<void>;
  /** A past_due subscription is paid with `cardId` now; answers what was paid and the new state. */
  payOpenInvoices(tx: Tx, sub: SubscriptionRecord, customerId: string, cardId: string, opId: string): Promise<Payment>;
  /** The exact amount a change would charge now (the same arithmetic as the change). */
  preview(tx: Tx, sub: SubscriptionRecord, change: PlannedChange, customerId: string): Promise<ChangePreview>;

  // ---- invoices ----
  listInvoices(tx: Tx, sub: SubscriptionRecord): Promise<Invoice[]>;
  /** The owner's invoice as a printable document (local) or the provider's hosted page. */
  invoiceDocument(tx: Tx, owner: { userId: string; customerId?: string | undefined }, id: string): Promise<InvoiceDocument>;
  /** Every invoice of the user, for the data export. */
  exportInvoices(tx: Tx, userId: string, subs: SubscriptionRecord[]): Promise<ExportedInvoice[]>;
  /** Account deletion: the name and address on kept invoices are replaced. */
  anonymiseCustomer(tx: Tx, userId: string, replacement: string): Promise<void>;

  // ---- refunds and credits (the vendor's console) ----
  /**
   * The invoice `id` with what was paid and given back, if this gateway holds it (a local invoice
   * is locked until the transaction ends, so two refunds of one invoice take turns); else undefined.
   */
  findRefundable(tx: Tx, id: string): Promise<RefundableInvoice | undefined>;
  /** Pays `amount` of a paid invoice back to what paid it. Billing has checked the amount against what is left. */
  refund(tx: Tx, invoice: RefundableInvoice, amount: number, opId: string): Promise<RefundMade>;
  /** Adds `amount` of a paid invoice to the customer's balance, taken off their next charges (checked as for refund). */
  credit(tx: Tx, invoice: RefundableInvoice, amount: number, opId: string): Promise<RefundMade>;

  // ---- what only some providers have ----
  /** Periods we renew ourselves (the local engine); Stripe renews its own and tells us. */
  readonly renewals?: {
    renew(tx: Tx, sub: SubscriptionRecord, billTo: BillTo): Promise<Renewal>;
    /** Charges a past_due subscription's open invoices to its own card again (a retry of the schedule). */
    retry(tx: Tx, sub: SubscriptionRecord): Promise<Payment>;
  };
  /** The local card form (POST /api/billing/local/confirm-setup). */
  readonly cardForm?: { confirmSetup(tx: Tx, customerId: string, input: CardFormInput): Promise<PaymentMethod> };
  /** Provider events (webhooks) translated into gateway events. */
  readonly events?: GatewayEvents;
  /** Tax the provider calculates (Stripe Tax, `STRIPE_TAX`): its customer holds the billing details. */
  readonly tax?: ProviderTax;
}

/** The provider's tax could not place the customer's address (Stripe's `customer_tax_location_invalid`). */
export const ADDRESS_NOT_LOCATED =
  'The tax could not be worked out for this address. Add the postal code and city, and check the country.';

/** The billing details a provider's tax needs, as they are saved in the portal. */
export type TaxCustomer = {
  name: string;
  address: {
    country: string;
    line1: string | null;
    line2: string | null;
    postalCode: string | null;
    city: string | null;
    region: string | null;
  };
  taxId: { type: string; value: string } | null;
};

export interface ProviderTax {
  /**
   * Writes the details onto the provider's customer (name, address, the tax ID replacing any other)
   * and answers whether the provider can place the customer for tax.
   */
  syncCustomer(customerId: string, customer: TaxCustomer, opId: string): Promise<{ located: boolean }>;
  /** Turns the provider's tax on for a subscription that has it off; answers whether it did. */
  enableFor(sub: SubscriptionRecord, opId: string): Promise<boolean>;
  /** A checkout's first invoice with the provider's tax, for the customer as given (changes nothing). */
  previewCheckout(customer: TaxCustomer, interval: Interval, quantity: number): Promise<CheckoutPreview>;
}

export type ProviderKind = 'local' | 'stripe';

/** The billing domain's record of a subscription, as gateways read it. */
export type SubscriptionRecord = typeof subscriptions.$inferSelect;

/** The provider-side state of a subscription, which billing writes onto its record. */
export type SubscriptionState = Pick<
  SubscriptionRecord,
  | 'status'
  | 'quantity'
  | 'interval'
  | 'unitAmount'
  | 'currency'
  | 'paymentMethodId'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'cancelAtPeriodEnd'
  | 'canceledAt'
>;
/** A change to the record: the provider's state, and the built-in engine's next retry of a failed payment. */
export type StatePatch = Partial<SubscriptionState> & {
  nextPaymentAttemptAt?: Date | null;
  /** Why it ends, when the answer ends it and its source knows (the provider's cancellation reason). */
  endedReason?: SubscriptionRecord['endedReason'];
};
export type ProviderSubscription = SubscriptionState & { providerId: string; endedReason?: SubscriptionRecord['endedReason'] };

/**
 * What the billing domain decides for a customer's next invoice (modules/billing/invoice-terms.ts):
 * the parties it names (copied onto the invoice) and the tax of its lines. A gateway that writes
 * invoices itself (the local engine) asks for them; the domain's rules stay in the domain.
 */
export type InvoiceTerms = {
  buyer: InvoiceParty | null;
  seller: InvoiceParty | null;
  /** none | domestic | eu_consumer | reverse_charge | export */
  regime: string;
  /** The sentence the regime puts on the invoice (reverse charge, export). */
  note: string | null;
  /** The lines' tax by the one rounding rule (per line, half away from zero), summed per rate. */
  tax(lines: readonly { amount: number }[]): { net: number; tax: number; total: number; breakdown: TaxBreakdownRow[] };
};
export type InvoiceTermsOf = (tx: Tx, billTo: Pick<BillTo, 'userId' | 'email' | 'name'> | null) => Promise<InvoiceTerms>;

/** Who pays: the portal user behind a provider customer. */
export type BillTo = { userId: string; email: string; name: string };

export type PlannedChange = { quantity?: number; interval?: Interval };

export type NewSubscriptionInput = {
  customerId: string;
  billTo: BillTo;
  interval: Interval;
  quantity: number;
  cardId: string | null;
  checkoutKey: string;
  plan: string;
};
export type SaveSubscription = (s: ProviderSubscription) => Promise<Saved>;
export type Saved = { row: SubscriptionRecord; before?: SubscriptionRecord | undefined };
export type CreatedSubscription = Saved & {
  /** The first invoice, when the gateway wrote one (the receipt is e-mailed from it). */
  invoice?: Receipt | undefined;
  /** Stripe: the first payment needs the customer's action in the browser (3-D Secure). */
  clientSecret?: string | undefined;
};

/** What a charge did: the state to write and the invoice it produced (local engine). */
export type Charge = { state: StatePatch; invoice?: Receipt | undefined };
export type Payment = {
  state: StatePatch;
  paid: Receipt[];
  /** The card's own message when it could not pay (the built-in engine; Stripe's decline throws a 402). */
  declined?: string | undefined;
};

export type Renewal =
  | { outcome: 'renewed'; state: StatePatch; invoice?: Receipt | undefined }
  | { outcome: 'payment_failed'; state: StatePatch; invoice?: Receipt | undefined }
  | { outcome: 'ended'; endedBecause: 'cancelled' | 'unpaid'; state: StatePatch };

/** An invoice as a receipt e-mail tells it. */
export type Receipt = {
  id: string;
  number: string;
  status: string;
  amountDue: number;
  amountPaid: number;
  currency: string;
  createdAt: Date;
  /** A line without a description (a provider may send none) is named after the subscription. */
  lines: { description: string | null; quantity: number; amount: number; periodStart: Date; periodEnd: Date }[];
  /** The invoice page: a path of ours (local) or the provider's address. */
  url: string | null;
  /** Set for an invoice only the provider holds (Stripe's), for its webhook events. */
  held?: HeldInvoice | undefined;
};

export type PrintableInvoice = {
  id: string;
  number: string;
  status: string;
  currency: string;
  amountDue: number;
  amountPaid: number;
  periodStart: Date;
  periodEnd: Date;
  lines: InvoiceLine[];
  customerName: string | null;
  customerEmail: string | null;
  createdAt: Date;
  taxAmount: number;
  taxBreakdown: TaxBreakdownRow[];
  taxRegime: string | null;
  taxNote: string | null;
  buyer: InvoiceParty | null;
  seller: InvoiceParty | null;
};
/** An invoice as a refund reads it. */
export type RefundableInvoice = {
  id: string;
  number: string;
  status: string;
  currency: string;
  amountPaid: number;
  /** Given back so far: refunded, or credited to the customer's balance. */
  amountReturned: number;
  /** Whose it is: our user (local engine) or the provider's customer (Stripe); null once anonymised. */
  owner: { userId: string } | { customerId: string } | null;
  /** What the provider pays back from (Stripe's payment intent); the local engine needs none. */
  paymentRef?: string | undefined;
  /** The rest of an invoice only the provider holds (Stripe's), for its webhook events; the local engine's are read from its rows. */
  held?: HeldInvoice | undefined;
};
/** What an invoice the portal does not store says of itself (Stripe's): the webhook object's remaining fields. */
export type HeldInvoice = {
  amountDue: number;
  subscriptionId: string | null;
  periodStart: Date;
  periodEnd: Date;
  createdAt: Date;
};
export type RefundMade = {
  id: string;
  amount: number;
  currency: string;
  /** The credit note the built-in engine issued for it (Stripe issues its own). */
  creditNote?: { id: string; number: string; total: number; createdAt: Date } | undefined;
};

export type InvoiceDocument = { printable: PrintableInvoice } | { redirect: string } | undefined;
export type ExportedInvoice = Record<string, unknown>;

export type CardFormInput = {
  clientSecret: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
};

/** What happened at the provider, in billing's words (read from the provider, never from the event's snapshot). */
export type GatewayEvent =
  | {
      type: 'subscription_changed';
      subscription: ProviderSubscription;
      customerId: string | null;
      receipt?: Receipt;
      /** The invoice whose payment just failed (the provider retries it on its own schedule). */
      failedInvoice?: Receipt;
    }
  | { type: 'card_attached'; customerId: string; cardId: string };

export type VerifiedEvent = {
  id: string;
  type: string;
  /** What to read back from the provider, or null for an event billing does not act on. */
  job: ProviderEventJob | null;
};
export type ProviderEventJob = { object: 'subscription' | 'invoice' | 'setup_intent'; id: string };

export interface GatewayEvents {
  /** Verifies a webhook against the raw body; throws a 400 AppError with the reason. */
  verify(raw: Buffer, signature: string | undefined): VerifiedEvent;
  /** Reads the object an event names and says what it means for billing. */
  read(job: ProviderEventJob & { eventType: string }): Promise<GatewayEvent | null>;
}
