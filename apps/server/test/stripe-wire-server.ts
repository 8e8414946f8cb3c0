import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addIntervals, prorate } from '../src/providers/billing/local/proration';
import {
  addressOf,
  automaticTaxStatus,
  LOCATION_INVALID,
  taxesOf,
  taxView,
  totalTaxesView,
  WIRE_TAX_ID_TYPES,
  type TaxLocation,
  type WireAddress,
  type WireTaxAmount,
  type WireTaxId,
} from './stripe-wire-tax';

/**
 * A local HTTP server that speaks Stripe's wire format for exactly the calls the portal makes:
 * form-encoded request bodies (`items[0][price]=…`), bracketed query strings, Bearer API keys,
 * Idempotency-Key replay, Stripe-shaped JSON objects and `{ error: { type, code, message } }` errors.
 * Tests point the official SDK at it through STRIPE_API_URL. It also plays the parts the portal
 * does not: Stripe.js confirming a card or a payment in the browser, and the billing clock.
 *
 * Card numbers behave as Stripe's test cards: 4242… succeeds, 4000 0000 0000 0002 is declined
 * when attached, 4000 0000 0000 9995 attaches and then fails charges for insufficient funds,
 * 4000 0025 0000 3155 needs 3-D Secure for off-session charges.
 *
 * Stripe Tax (stripe-wire-tax.ts): customers' addresses and tax IDs, `automatic_tax` on
 * subscriptions and previews, and tax at the stand-in's own rates on the invoices it makes.
 */

type Json = Record<string, unknown>;
type Interval = 'month' | 'year';

export type WirePrice = { id: string; unitAmount: number; currency: string; interval: Interval };
export type WireRequest = {
  method: string;
  path: string;
  query: Json;
  body: Json;
  idempotencyKey: string | undefined;
  replayed: boolean;
};

type Card = { brand: string; last4: string; behaviour: 'ok' | 'insufficient_funds' | 'declined' | 'requires_action' };

type Customer = Json & {
  id: string;
  invoice_settings: { default_payment_method: string | null };
  balance: number;
  address: WireAddress | null;
  deleted?: boolean;
};
type PaymentMethod = Json & { id: string; customer: string | null; card: Json };
type SetupIntent = Json & { id: string; client_secret: string; customer: string; status: string; payment_method: string | null };
type Line = {
  amount: number;
  description: string;
  quantity: number;
  unit: number;
  start: number;
  end: number;
  proration: boolean;
};
type Invoice = Json & {
  id: string;
  customer: string;
  subscription: string | null;
  status: string;
  amount_due: number;
  amount_paid: number;
  total: number;
  currency: string;
  created: number;
  lineItems: Line[];
  paymentSecret: string;
  /** Stripe Tax's amounts, one per line (none without automatic tax). */
  taxes: WireTaxAmount[];
  automaticTax: boolean;
};
type Subscription = {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  /** Why Stripe ended it (set when it did). */
  cancellation_details?: { reason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed' | null };
  created: number;
  default_payment_method: string | null;
  latest_invoice: string | null;
  metadata: Json;
  item: {
    id: string;
    price: string;
    quantity: number;
    current_period_start: number;
    current_period_end: number;
    created: number;
  };
  anchor: number;
  saveDefault: boolean;
  /** `automatic_tax[enabled]`: Stripe Tax adds tax to this subscription's invoices. */
  automaticTax: boolean;
};

type Refund = Json & { id: string; amount: number; payment_intent: string; status: string };
type CreditNote = Json & { id: string; invoice: string; customer: string; total: number; status: string };

class StripeWireError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}
const invalid = (message: string, param?: string) =>
  new StripeWireError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
const missing = (kind: string, id: string) =>
  new StripeWireError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param: 'id',
  });

const CARD_MESSAGES = {
  insufficient_funds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  requires_action: {
    code: 'invoice_payment_intent_requires_action',
    message: 'This payment requires additional user action before it can be completed successfully.',
  },
} as const;

function cardFor(number: string): Card | { attachError: Json } {
  const digits = number.replace(/\D/g, '');
  if (digits === '4000000000000002')
    return { attachError: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } };
  const brand = digits.startsWith('4')
    ? 'visa'
    : digits.startsWith('5')
      ? 'mastercard'
      : digits.startsWith('3')
        ? 'amex'
        : 'discover';
  const behaviour: Card['behaviour'] =
    digits === '4000000000009995'
      ? 'insufficient_funds'
      : digits === '4000000000000341'
        ? 'declined'
        : digits === '4000002500003155'
          ? 'requires_action'
          : 'ok';
  return { brand, last4: digits.slice(-4), behaviour };
}

/** `a[b][0][c]=v` pairs into nested objects and arrays, as Stripe's API reads them. */
export function parseStripeForm(encoded: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(encoded)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[key] = value;
      else {
        node[key] ??= /^\d+$/.test(parts[i + 1] ?? '') || parts[i + 1] === '' ? [] : {};
        node = node[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** A form value as a string ('' when absent or nested). */
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

export type WireEvent = { id: string; type: string; data: { object: unknown } } & Json;

export async function startStripeWireServer(opts: {
  secretKey: string;
  prices: WirePrice[];
  now: () => Date;
  /** The key Stripe.js sends from the browser (`key=` in the form body); enables the browser routes. */
  publishableKey?: string;
  /** Called with each event Stripe would send to the webhook after a browser confirmation. */
  onEvent?: (event: WireEvent) => void;
}) {
  const customers = new Map<string, Customer>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const cards = new Map<string, Card>();
  const setupIntents = new Map<string, SetupIntent>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const refunds = new Map<string, Refund>();
  const creditNotes = new Map<string, CreditNote>();
  const taxIds = new Map<string, WireTaxId & { customer: string }>();
  const prices = new Map(opts.prices.map((p) => [p.id, p]));
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  const requests: WireRequest[] = [];
  let invoiceSeq = 1;
  const nowS = () => Math.floor(opts.now().getTime() / 1000);

  // ---------- object views ----------

  const priceView = (p: WirePrice) => ({
    id: p.id,
    object: 'price',
    active: true,
    currency: p.currency,
    product: 'prod_portal',
    recurring: { interval: p.interval, interval_count: 1, usage_type: 'licensed', meter: null, trial_period_days: null },
    type: 'recurring',
    unit_amount: p.unitAmount,
    unit_amount_decimal: String(p.unitAmount),
    livemode: false,
  });

  /** The payment intent of an invoice (Stripe makes one when it finalises the invoice). */
  const paymentIntentOf = (inv: Invoice) => inv.paymentSecret.split('_secret_')[0]!;

  /** Invoice payments (`expand[]=payments`): the default one, through the invoice's payment intent. */
  const paymentsView = (inv: Invoice) =>
    list(
      inv.amount_due > 0
        ? [
            {
              id: `inpay_${inv.id.slice(3)}`,
              object: 'invoice_payment',
              amount_paid: inv.status === 'paid' ? inv.amount_paid : null,
              amount_requested: inv.amount_due,
              currency: inv.currency,
              invoice: inv.id,
              is_default: true,
              livemode: false,
              payment: { type: 'payment_intent', payment_intent: paymentIntentOf(inv) },
              status: inv.status === 'paid' ? 'paid' : 'open',
              status_transitions: { canceled_at: null, paid_at: inv.status === 'paid' ? inv.created : null },
              created: inv.created,
            },
          ]
        : [],
      `/v1/invoice_payments?invoice=${inv.id}`,
    );

  function invoiceView(inv: Invoice, expandSecret: boolean, expand: string[] = []) {
    const { lineItems, paymentSecret, subscription, taxes, automaticTax, ...rest } = inv;
    const subtotal = lineItems.reduce((a, l) => a + l.amount, 0);
    return {
      ...rest,
      object: 'invoice',
      number: inv.status === 'draft' ? null : inv.number,
      amount_remaining: inv.amount_due - inv.amount_paid,
      subtotal,
      subtotal_excluding_tax: subtotal,
      total_excluding_tax: subtotal,
      total_taxes: totalTaxesView(taxes),
      automatic_tax: {
        enabled: automaticTax,
        status: automaticTax ? 'complete' : null,
        liability: automaticTax ? { type: 'self' } : null,
        disabled_reason: null,
        provider: automaticTax ? 'stripe' : null,
      },
      hosted_invoice_url: inv.id.startsWith('upcoming') ? null : `https://invoice.stripe.test/i/${inv.id}`,
      invoice_pdf: inv.id.startsWith('upcoming') ? null : `https://pay.stripe.test/invoice/${inv.id}/pdf`,
      parent: subscription
        ? { type: 'subscription_details', quote_details: null, subscription_details: { subscription, metadata: {} } }
        : null,
      lines: {
        object: 'list',
        has_more: false,
        url: `/v1/invoices/${inv.id}/lines`,
        data: lineItems.map((l, i) => ({
          id: `il_${inv.id}_${i}`,
          object: 'line_item',
          amount: l.amount,
          currency: inv.currency,
          description: l.description,
          quantity: l.quantity,
          period: { start: l.start, end: l.end },
          pricing: {
            type: 'price_details',
            price_details: { price: 'price', product: 'prod_portal' },
            unit_amount_decimal: String(l.unit),
          },
          parent: { type: 'subscription_item_details', subscription_item_details: { proration: l.proration, subscription } },
          subscription,
        })),
      },
      livemode: false,
      ...(expandSecret ? { confirmation_secret: { client_secret: paymentSecret, type: 'payment_intent' } } : {}),
      ...(expand.includes('payments') ? { payments: paymentsView(inv) } : {}),
    };
  }

  function subscriptionView(s: Subscription, expand: string[]) {
    const price = prices.get(s.item.price)!;
    const latest = s.latest_invoice ? invoices.get(s.latest_invoice) : undefined;
    const expandInvoice = expand.some((e) => e.startsWith('latest_invoice'));
    return {
      id: s.id,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      cancel_at_period_end: s.cancel_at_period_end,
      cancel_at: s.cancel_at_period_end ? s.item.current_period_end : null,
      canceled_at: s.canceled_at,
      ended_at: s.ended_at,
      cancellation_details: { comment: null, feedback: null, reason: s.cancellation_details?.reason ?? null },
      created: s.created,
      start_date: s.created,
      billing_cycle_anchor: s.anchor,
      collection_method: 'charge_automatically',
      currency: price.currency,
      default_payment_method: s.default_payment_method,
      automatic_tax: { enabled: s.automaticTax, liability: s.automaticTax ? { type: 'self' } : null, disabled_reason: null },
      latest_invoice:
        expandInvoice && latest ? invoiceView(latest, expand.includes('latest_invoice.confirmation_secret')) : s.latest_invoice,
      metadata: s.metadata,
      livemode: false,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${s.id}`,
        data: [{ ...s.item, object: 'subscription_item', subscription: s.id, price: priceView(price), metadata: {} }],
      },
    };
  }

  const pmView = (pm: PaymentMethod) => pm;
  const list = (data: unknown[], url: string) => ({ object: 'list', data, has_more: false, url });

  // ---------- billing ----------

  function chargeable(pmId: string | null): Card['behaviour'] | 'none' {
    if (!pmId) return 'none';
    return cards.get(pmId)?.behaviour ?? 'none';
  }

  function cardError(behaviour: Card['behaviour'] | 'none'): StripeWireError {
    if (behaviour === 'none') {
      return new StripeWireError(400, {
        type: 'invalid_request_error',
        code: 'invoice_no_payment_method',
        message: 'This customer has no attached payment source or default payment method.',
      });
    }
    return new StripeWireError(402, { type: 'card_error', ...CARD_MESSAGES[behaviour as keyof typeof CARD_MESSAGES] });
  }

  /** Where Stripe Tax locates a customer: their address and tax IDs. */
  const locationOf = (customerId: string): TaxLocation => ({
    address: customers.get(customerId)?.address ?? null,
    taxIds: [...taxIds.values()].filter((t) => t.customer === customerId),
  });

  /** `taxAt`: a preview's own location (customer_details) and whether it asks for automatic tax. */
  function makeInvoice(
    s: Subscription,
    lines: Line[],
    reason: string,
    persist = true,
    taxAt: { enabled: boolean; location?: TaxLocation } = { enabled: s.automaticTax },
  ): Invoice {
    const customer = customers.get(s.customer)!;
    const taxes = taxAt.enabled ? taxesOf(lines, taxAt.location ?? locationOf(s.customer)) : [];
    const total = lines.reduce((a, l) => a + l.amount, 0) + taxes.reduce((a, t) => a + t.amount, 0);
    const credit = Math.max(0, -customer.balance);
    const applied = total > 0 ? Math.min(credit, total) : 0;
    const inv: Invoice = {
      id: persist ? rid('in') : rid('upcoming_in'),
      customer: s.customer,
      subscription: s.id,
      status: 'open',
      number: `WIRE-${String(invoiceSeq).padStart(4, '0')}`,
      amount_due: total > 0 ? total - applied : 0,
      amount_paid: 0,
      total,
      starting_balance: customer.balance,
      currency: prices.get(s.item.price)!.currency,
      created: nowS(),
      period_start: lines[0]?.start ?? nowS(),
      period_end: lines[0]?.end ?? nowS(),
      billing_reason: reason,
      attempt_count: 0,
      lineItems: lines,
      taxes,
      automaticTax: taxAt.enabled,
      paymentSecret: `pi_${randomBytes(8).toString('hex')}_secret_${randomBytes(12).toString('hex')}`,
    };
    if (persist) {
      invoiceSeq++;
      invoices.set(inv.id, inv);
      // Credit used, or credit added by a negative invoice (Stripe's customer balance).
      customer.balance = recomputeBalance(s.customer);
      if (inv.amount_due === 0) {
        inv.status = 'paid';
      }
    }
    return inv;
  }

  /** Customer balance = credit from negative invoices minus credit applied to later ones. */
  function recomputeBalance(customerId: string): number {
    let balance = 0;
    for (const inv of invoices.values()) {
      if (inv.customer !== customerId) continue;
      if (inv.total < 0) balance += inv.total;
      else balance += inv.total - inv.amount_due;
    }
    // Credit notes credited to the balance (the portal's credit notes credit their whole total).
    for (const n of creditNotes.values()) if (n.customer === customerId && n.status === 'issued') balance -= n.total;
    return balance;
  }

  function pay(inv: Invoice, pmId: string | null) {
    if (inv.status === 'paid') return;
    const behaviour = chargeable(pmId);
    inv.attempt_count = Number(inv.attempt_count) + 1;
    if (behaviour !== 'ok') throw cardError(behaviour);
    inv.status = 'paid';
    inv.amount_paid = inv.amount_due;
  }

  const periodLines = (s: Subscription, quantity: number, priceId: string, start: number, end: number): Line[] => {
    const p = prices.get(priceId)!;
    return [
      {
        amount: p.unitAmount * quantity,
        description: `${quantity} × Node license (at $${(p.unitAmount / 100).toFixed(2)} / ${p.interval})`,
        quantity,
        unit: p.unitAmount,
        start,
        end,
        proration: false,
      },
    ];
  };

  /** Stripe's proration for an item change at `at` (seconds), same model as always_invoice. */
  function prorationLines(
    s: Subscription,
    change: { quantity?: number; price?: string },
    at: number,
  ): { lines: Line[]; period?: { start: number; end: number } } {
    const oldPrice = prices.get(s.item.price)!;
    const newPrice = prices.get(change.price ?? s.item.price)!;
    const quantity = change.quantity ?? s.item.quantity;
    const { current_period_start: start, current_period_end: end } = s.item;
    const remaining = Math.max(0, end - at) * 1000;
    const total = (end - start) * 1000;
    const credit = -prorate(oldPrice.unitAmount * s.item.quantity, remaining, total);
    const unused: Line = {
      amount: credit,
      description: `Unused time on ${s.item.quantity} × Node license`,
      quantity: s.item.quantity,
      unit: oldPrice.unitAmount,
      start: at,
      end,
      proration: true,
    };
    if (newPrice.interval !== oldPrice.interval) {
      // Changing the interval resets the billing cycle anchor to now.
      const newEnd = Math.floor(addIntervals(new Date(at * 1000), newPrice.interval, 1).getTime() / 1000);
      return {
        lines: [unused, ...periodLines(s, quantity, newPrice.id, at, newEnd)],
        period: { start: at, end: newEnd },
      };
    }
    const charge = prorate(newPrice.unitAmount * quantity, remaining, total);
    return {
      lines: [
        unused,
        {
          amount: charge,
          description: `Remaining time on ${quantity} × Node license`,
          quantity,
          unit: newPrice.unitAmount,
          start: at,
          end,
          proration: true,
        },
      ],
    };
  }

  // ---------- routes ----------

  type Handler = (m: RegExpMatchArray, body: Json, query: Json) => unknown;
  const routes: [string, RegExp, Handler][] = [];
  const route = (method: string, path: string, handler: Handler) => routes.push([method, new RegExp(`^${path}$`), handler]);
  /** Routes Stripe.js calls from the browser: the publishable key in the body, and CORS. */
  const browserRoutes: [string, RegExp, Handler][] = [];
  const browserRoute = (method: string, path: string, handler: Handler) =>
    browserRoutes.push([method, new RegExp(`^${path}$`), handler]);
  const expandOf = (b: Json): string[] => (Array.isArray(b.expand) ? (b.expand as string[]) : []);

  const getCustomer = (id: string) => {
    const c = customers.get(id);
    if (!c) throw missing('customer', id);
    return c;
  };
  const getSub = (id: string) => {
    const s = subscriptions.get(id);
    if (!s) throw missing('subscription', id);
    return s;
  };
  const getInvoice = (id: string) => {
    const i = invoices.get(id);
    if (!i) throw missing('invoice', id);
    return i;
  };

  route('POST', '/v1/customers', (_m, b) => {
    const c: Customer = {
      id: rid('cus'),
      object: 'customer',
      created: nowS(),
      email: (b.email as string) ?? null,
      name: (b.name as string) ?? null,
      metadata: (b.metadata as Json) ?? {},
      invoice_settings: { default_payment_method: null },
      balance: 0,
      address: addressOf(b.address),
      livemode: false,
    };
    customers.set(c.id, c);
    return customerView(c, expandOf(b));
  });
  /** A customer; its `tax` hash only when expanded (as Stripe's). */
  const customerView = (c: Customer, expand: string[]) => (expand.includes('tax') ? { ...c, tax: taxView(c.address) } : c);
  route('GET', '/v1/customers/([^/]+)', (m, _b, q) => customerView(getCustomer(m[1]!), expandOf(q)));
  route('POST', '/v1/customers/([^/]+)', (m, b) => {
    const c = getCustomer(m[1]!);
    // `address=` (empty) removes it; a partial hash replaces it.
    const address = 'address' in b ? addressOf(b.address) : c.address;
    // Stripe Tax checks the address at once when asked, and then refuses one it cannot place.
    if (
      (b.tax as Json | undefined)?.validate_location === 'immediately' &&
      automaticTaxStatus(address) === 'unrecognized_location'
    )
      throw new StripeWireError(400, { ...LOCATION_INVALID, param: 'address' });
    c.address = address;
    const settings = b.invoice_settings as Json | undefined;
    if (settings && 'default_payment_method' in settings) {
      const pm = str(settings.default_payment_method);
      if (paymentMethods.get(pm)?.customer !== c.id)
        throw invalid(`No such PaymentMethod: '${pm}'`, 'invoice_settings[default_payment_method]');
      c.invoice_settings.default_payment_method = pm;
    }
    if (b.email) c.email = b.email;
    if (b.name) c.name = b.name;
    return customerView(c, expandOf(b));
  });
  const taxIdView = (t: WireTaxId & { customer: string }) => ({
    ...t,
    object: 'tax_id',
    country: t.type === 'eu_vat' ? t.value.slice(0, 2).replace('EL', 'GR') : null,
    created: nowS(),
    livemode: false,
    verification: { status: 'pending', verified_address: null, verified_name: null },
  });
  route('POST', '/v1/customers/([^/]+)/tax_ids', (m, b) => {
    const c = getCustomer(m[1]!);
    const type = str(b.type);
    if (!WIRE_TAX_ID_TYPES.includes(type)) throw invalid(`Invalid type: must be one of ${WIRE_TAX_ID_TYPES.join(', ')}`, 'type');
    const value = str(b.value);
    if (!/^[A-Z0-9][A-Z0-9 .-]{3,}$/i.test(value)) {
      throw new StripeWireError(400, {
        type: 'invalid_request_error',
        code: 'tax_id_invalid',
        param: 'value',
        message: `Invalid value for ${type}.`,
      });
    }
    const t = { id: rid('txi'), type, value, customer: c.id };
    taxIds.set(t.id, t);
    return taxIdView(t);
  });
  route('GET', '/v1/customers/([^/]+)/tax_ids', (m) => {
    const c = getCustomer(m[1]!);
    const data = [...taxIds.values()].filter((t) => t.customer === c.id).map(taxIdView);
    return list(data, `/v1/customers/${c.id}/tax_ids`);
  });
  route('DELETE', '/v1/customers/([^/]+)/tax_ids/([^/]+)', (m) => {
    const t = taxIds.get(m[2]!);
    if (!t || t.customer !== m[1]) throw missing('tax_id', m[2]!);
    taxIds.delete(t.id);
    return { id: t.id, object: 'tax_id', deleted: true };
  });
  // The rates Stripe Tax used (`total_taxes[].tax_rate_details.tax_rate`), named by their basis points.
  route('GET', '/v1/tax_rates/txr_wire_(\\d+)', (m) => ({
    id: `txr_wire_${m[1]}`,
    object: 'tax_rate',
    active: true,
    display_name: 'VAT',
    inclusive: false,
    percentage: Number(m[1]) / 100,
    effective_percentage: Number(m[1]) / 100,
    livemode: false,
  }));
  /** `automatic_tax[enabled]=true` needs a customer Stripe Tax can locate (Stripe's own check). */
  const automaticTaxOf = (b: Json, customerId: string, current = false): boolean => {
    const param = b.automatic_tax as Json | undefined;
    if (!param || !('enabled' in param)) return current;
    const enabled = param.enabled === 'true';
    if (enabled && automaticTaxStatus(locationOf(customerId).address) === 'unrecognized_location') {
      throw new StripeWireError(400, { ...LOCATION_INVALID, param: 'automatic_tax[enabled]' });
    }
    return enabled;
  };
  route('GET', '/v1/customers/([^/]+)/payment_methods', (m) => {
    const c = getCustomer(m[1]!);
    const data = [...paymentMethods.values()]
      .filter((p) => p.customer === c.id)
      .sort((a, b) => Number(b.created) - Number(a.created));
    return list(data.map(pmView), `/v1/customers/${c.id}/payment_methods`);
  });
  route('GET', '/v1/payment_methods/([^/]+)', (m) => {
    const pm = paymentMethods.get(m[1]!);
    if (!pm) throw missing('payment_method', m[1]!);
    return pm;
  });
  route('POST', '/v1/payment_methods/([^/]+)/detach', (m) => {
    const pm = paymentMethods.get(m[1]!);
    if (!pm) throw missing('payment_method', m[1]!);
    if (!pm.customer) throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
    const c = customers.get(pm.customer);
    if (c?.invoice_settings.default_payment_method === pm.id) c.invoice_settings.default_payment_method = null;
    pm.customer = null;
    return pm;
  });

  route('POST', '/v1/setup_intents', (_m, b) => {
    const customer = getCustomer(str(b.customer));
    const id = rid('seti');
    const si: SetupIntent = {
      id,
      object: 'setup_intent',
      client_secret: `${id}_secret_${randomBytes(16).toString('hex')}`,
      customer: customer.id,
      status: 'requires_payment_method',
      payment_method: null,
      usage: b.usage ?? 'off_session',
      allowed_payment_method_types: b.allowed_payment_method_types ?? ['card'],
      last_setup_error: null,
      created: nowS(),
      livemode: false,
    };
    setupIntents.set(id, si);
    return si;
  });
  route('GET', '/v1/setup_intents/([^/]+)', (m) => {
    const si = setupIntents.get(m[1]!);
    if (!si) throw missing('setup_intent', m[1]!);
    return si;
  });

  route('POST', '/v1/subscriptions', (_m, b) => {
    const customer = getCustomer(str(b.customer));
    const items = b.items as Json[] | undefined;
    const priceId = str(items?.[0]?.price ?? '');
    if (!prices.has(priceId)) throw invalid(`No such price: '${priceId}'`, 'items[0][price]');
    const quantity = Number(items?.[0]?.quantity ?? 1);
    const pm = b.default_payment_method ? str(b.default_payment_method) : null;
    if (pm && paymentMethods.get(pm)?.customer !== customer.id)
      throw invalid(`No such PaymentMethod: '${pm}'`, 'default_payment_method');
    if (b.payment_behavior !== 'default_incomplete')
      throw invalid('This stand-in only implements payment_behavior=default_incomplete', 'payment_behavior');
    const now = nowS();
    const price = prices.get(priceId)!;
    const end = Math.floor(addIntervals(new Date(now * 1000), price.interval, 1).getTime() / 1000);
    const s: Subscription = {
      id: rid('sub'),
      customer: customer.id,
      status: 'incomplete',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      created: now,
      default_payment_method: pm,
      latest_invoice: null,
      metadata: (b.metadata as Json) ?? {},
      item: { id: rid('si'), price: priceId, quantity, current_period_start: now, current_period_end: end, created: now },
      anchor: now,
      saveDefault: (b.payment_settings as Json | undefined)?.save_default_payment_method === 'on_subscription',
      automaticTax: automaticTaxOf(b, customer.id),
    };
    subscriptions.set(s.id, s);
    const inv = makeInvoice(s, periodLines(s, quantity, priceId, now, end), 'subscription_create');
    s.latest_invoice = inv.id;
    if (inv.status === 'paid') s.status = 'active';
    return subscriptionView(s, expandOf(b));
  });
  route('GET', '/v1/subscriptions/([^/]+)', (m, _b, q) => subscriptionView(getSub(m[1]!), expandOf(q)));
  route('POST', '/v1/subscriptions/([^/]+)', (m, b) => {
    const s = getSub(m[1]!);
    if (s.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    s.automaticTax = automaticTaxOf(b, s.customer, s.automaticTax);
    if ('cancel_at_period_end' in b) {
      s.cancel_at_period_end = b.cancel_at_period_end === 'true';
      s.canceled_at = s.cancel_at_period_end ? nowS() : null;
    }
    if (b.default_payment_method) {
      const pm = str(b.default_payment_method);
      if (paymentMethods.get(pm)?.customer !== s.customer)
        throw invalid(`No such PaymentMethod: '${pm}'`, 'default_payment_method');
      s.default_payment_method = pm;
    }
    const item = (b.items as Json[] | undefined)?.[0];
    if (item) {
      if (item.id !== s.item.id) throw invalid(`Invalid subscription item: '${str(item.id)}'`, 'items[0][id]');
      if (b.proration_behavior !== 'always_invoice')
        throw invalid('This stand-in only implements proration_behavior=always_invoice', 'proration_behavior');
      const change = {
        ...(item.quantity ? { quantity: Number(item.quantity) } : {}),
        ...(item.price ? { price: str(item.price) } : {}),
      };
      if (change.price && !prices.has(change.price)) throw invalid(`No such price: '${change.price}'`, 'items[0][price]');
      const at = nowS();
      const { lines, period } = prorationLines(s, change, at);
      const snapshot = structuredClone(s);
      const balance = customers.get(s.customer)!.balance;
      const inv = makeInvoice(s, lines, 'subscription_update');
      try {
        if (inv.amount_due > 0)
          pay(inv, s.default_payment_method ?? customers.get(s.customer)!.invoice_settings.default_payment_method);
      } catch (err) {
        if (b.payment_behavior === 'error_if_incomplete') {
          // Nothing changes when the payment fails.
          invoices.delete(inv.id);
          customers.get(s.customer)!.balance = balance;
          Object.assign(s, snapshot);
          throw err;
        }
        s.status = 'past_due';
      }
      if (change.quantity) s.item.quantity = change.quantity;
      if (change.price) s.item.price = change.price;
      if (period) {
        s.item.current_period_start = period.start;
        s.item.current_period_end = period.end;
        s.anchor = period.start;
      }
      s.latest_invoice = inv.id;
    }
    return subscriptionView(s, expandOf(b));
  });
  route('DELETE', '/v1/subscriptions/([^/]+)', (m) => {
    const s = getSub(m[1]!);
    if (s.status === 'canceled') throw invalid(`A canceled subscription can not be canceled again.`);
    s.status = 'canceled';
    s.canceled_at = nowS();
    s.ended_at = nowS();
    s.cancel_at_period_end = false;
    return subscriptionView(s, []);
  });

  route('GET', '/v1/invoices', (_m, _b, q) => {
    const sub = q.subscription ? str(q.subscription) : undefined;
    const data = [...invoices.values()]
      .filter((i) => !sub || i.subscription === sub)
      .sort((a, b) => b.created - a.created || b.id.localeCompare(a.id))
      .slice(0, Number(q.limit ?? 10));
    return list(
      data.map((i) => invoiceView(i, false)),
      '/v1/invoices',
    );
  });
  route('POST', '/v1/invoices/create_preview', (_m, b) => {
    const details = (b.subscription_details ?? {}) as Json;
    const item = (details.items as Json[] | undefined)?.[0] ?? {};
    const taxAt = previewTaxOf(b);
    if (!b.subscription) return previewNewSubscription(b, item, taxAt);
    const s = getSub(str(b.subscription));
    const at = details.proration_date ? Number(details.proration_date) : nowS();
    const change = {
      ...(item.quantity ? { quantity: Number(item.quantity) } : {}),
      ...(item.price ? { price: str(item.price) } : {}),
    };
    const { lines } = prorationLines(s, change, at);
    return invoiceView(makeInvoice(s, lines, 'upcoming', false, taxAt ?? { enabled: s.automaticTax }), false);
  });
  /**
   * A preview's automatic tax: `automatic_tax[enabled]` and where the customer is (`customer_details`
   * overrides the customer's own address and tax IDs). Undefined: the subscription's own setting.
   */
  function previewTaxOf(b: Json): { enabled: boolean; location?: TaxLocation } | undefined {
    const param = b.automatic_tax as Json | undefined;
    if (!param) return undefined;
    if (param.enabled !== 'true') return { enabled: false };
    const cd = b.customer_details as Json | undefined;
    const location: TaxLocation = cd
      ? {
          address: addressOf(cd.address),
          taxIds: ((cd.tax_ids as Json[] | undefined) ?? []).map((t) => ({ type: str(t.type), value: str(t.value) })),
        }
      : b.customer
        ? locationOf(str(b.customer))
        : { address: null, taxIds: [] };
    if (!cd && !b.customer && !b.subscription)
      throw invalid('When automatic_tax is enabled, one of customer, customer_details, subscription or schedule must be set.');
    if (automaticTaxStatus(location.address) === 'unrecognized_location')
      throw new StripeWireError(400, { ...LOCATION_INVALID, param: 'customer_details[address]' });
    return { enabled: true, location };
  }
  /** The first invoice of a subscription not made yet (`subscription_details[items]` alone). */
  function previewNewSubscription(b: Json, item: Json, taxAt: { enabled: boolean; location?: TaxLocation } | undefined) {
    const priceId = str(item.price);
    const price = prices.get(priceId);
    if (!price) throw invalid(`No such price: '${priceId}'`, 'subscription_details[items][0][price]');
    const quantity = Number(item.quantity ?? 1);
    const now = nowS();
    const end = Math.floor(addIntervals(new Date(now * 1000), price.interval, 1).getTime() / 1000);
    const customerId = b.customer ? getCustomer(str(b.customer)).id : rid('cus_preview');
    if (!customers.has(customerId)) {
      customers.set(customerId, {
        id: customerId,
        invoice_settings: { default_payment_method: null },
        balance: 0,
        address: null,
      });
    }
    const draft = {
      id: 'sub_preview',
      customer: customerId,
      item: { price: priceId, quantity },
      automaticTax: false,
    } as Subscription;
    const inv = makeInvoice(
      draft,
      periodLines(draft, quantity, priceId, now, end),
      'upcoming',
      false,
      taxAt ?? { enabled: false },
    );
    if (!b.customer) customers.delete(customerId);
    return invoiceView({ ...inv, subscription: null }, false);
  }
  route('GET', '/v1/invoices/([^/]+)', (m, _b, q) => invoiceView(getInvoice(m[1]!), false, expandOf(q)));
  route('POST', '/v1/invoices/([^/]+)/pay', (m, b) => {
    const inv = getInvoice(m[1]!);
    const s = inv.subscription ? subscriptions.get(inv.subscription) : undefined;
    const pm = b.payment_method
      ? str(b.payment_method)
      : (s?.default_payment_method ?? customers.get(inv.customer)!.invoice_settings.default_payment_method);
    if (pm && paymentMethods.get(pm)?.customer !== inv.customer)
      throw invalid(`No such PaymentMethod: '${pm}'`, 'payment_method');
    pay(inv, pm);
    if (s) activate(s, pm);
    return invoiceView(inv, false);
  });

  // Refunds of a paid invoice's payment intent, in all at most what was paid (Stripe's own checks).
  const refundedOf = (pi: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === pi && r.status === 'succeeded').reduce((a, r) => a + r.amount, 0);
  route('POST', '/v1/refunds', (_m, b) => {
    const pi = str(b.payment_intent);
    if (!pi) throw invalid('One of the following params should be provided for this request: payment_intent or charge.');
    const inv = [...invoices.values()].find((i) => paymentIntentOf(i) === pi && i.status === 'paid' && i.amount_paid > 0);
    if (!inv) throw missing('payment_intent', pi);
    const left = inv.amount_paid - refundedOf(pi);
    const charge = `ch_${pi.slice(3)}`;
    if (left <= 0)
      throw new StripeWireError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${charge} has already been refunded.`,
      });
    const amount = b.amount === undefined ? left : Number(b.amount);
    if (!Number.isInteger(amount) || amount <= 0) throw invalid('Invalid positive integer', 'amount');
    if (amount > left) {
      const usd = (n: number) => `$${(n / 100).toFixed(2)}`;
      throw new StripeWireError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${usd(amount)}) is greater than unrefunded amount on charge (${usd(left)})`,
      });
    }
    const r: Refund = {
      id: rid('re'),
      object: 'refund',
      amount,
      currency: inv.currency,
      charge,
      payment_intent: pi,
      status: 'succeeded',
      reason: b.reason ? str(b.reason) : null,
      metadata: (b.metadata as Json) ?? {},
      created: nowS(),
    };
    refunds.set(r.id, r);
    return r;
  });
  // Post-payment credit notes of a paid invoice, credited to the customer's balance; together with
  // the charge's refunds at most what was paid.
  route('POST', '/v1/credit_notes', (_m, b) => {
    const inv = getInvoice(str(b.invoice));
    if (inv.status !== 'paid')
      throw invalid(
        'Credit notes on an invoice that is not paid are pre-payment; this stand-in only issues post-payment ones.',
        'invoice',
      );
    const amount = Number(b.amount);
    const credit = b.credit_amount === undefined ? amount : Number(b.credit_amount);
    if (!Number.isInteger(amount) || amount <= 0) throw invalid('Invalid positive integer', 'amount');
    if (credit !== amount)
      throw invalid(
        'The sum of credit amount, refund amount and out of band amount must equal the credit note amount.',
        'credit_amount',
      );
    const issued = [...creditNotes.values()]
      .filter((n) => n.invoice === inv.id && n.status === 'issued')
      .reduce((a, n) => a + n.total, 0);
    const left = inv.amount_paid - issued - refundedOf(paymentIntentOf(inv));
    if (amount > left)
      throw invalid(
        `The credit note amount (${amount}) is greater than the amount remaining on the invoice (${left}).`,
        'amount',
      );
    const n: CreditNote = {
      id: rid('cn'),
      object: 'credit_note',
      amount,
      amount_shipping: 0,
      created: nowS(),
      currency: inv.currency,
      customer: inv.customer,
      customer_balance_transaction: rid('cbtxn'),
      discount_amount: 0,
      discount_amounts: [],
      effective_at: nowS(),
      invoice: inv.id,
      lines: list([], '/v1/credit_notes/lines'),
      livemode: false,
      memo: null,
      metadata: (b.metadata as Json) ?? {},
      number: `${inv.number}-CN-${creditNotes.size + 1}`,
      out_of_band_amount: null,
      pdf: 'https://pay.stripe.test/credit_notes/pdf',
      post_payment_amount: amount,
      pre_payment_amount: 0,
      reason: null,
      refunds: [],
      status: 'issued',
      subtotal: amount,
      total: amount,
      type: 'post_payment',
      voided_at: null,
    };
    creditNotes.set(n.id, n);
    const customer = getCustomer(inv.customer);
    customer.balance = recomputeBalance(customer.id);
    return n;
  });
  route('GET', '/v1/credit_notes', (_m, _b, q) => {
    const invoice = q.invoice ? str(q.invoice) : undefined;
    const data = [...creditNotes.values()].filter((n) => !invoice || n.invoice === invoice).slice(0, Number(q.limit ?? 10));
    return list(data, '/v1/credit_notes');
  });
  route('GET', '/v1/refunds', (_m, _b, q) => {
    const pi = q.payment_intent ? str(q.payment_intent) : undefined;
    const data = [...refunds.values()]
      .filter((r) => !pi || r.payment_intent === pi)
      .sort((a, b) => Number(b.created) - Number(a.created))
      .slice(0, Number(q.limit ?? 10));
    return list(data, '/v1/refunds');
  });

  function activate(s: Subscription, pm: string | null) {
    if (s.status === 'incomplete' || s.status === 'past_due') s.status = 'active';
    if (!s.default_payment_method && s.saveDefault && pm) s.default_payment_method = pm;
  }

  // ---------- Stripe.js (the browser's side) ----------

  /** What Stripe.js does with a SetupIntent's client secret and a typed card. */
  function confirmCardSetup(
    clientSecret: string,
    number: string,
    exp = { month: 12, year: opts.now().getUTCFullYear() + 3 },
  ): { error: Json; setupIntent: SetupIntent } | { error?: undefined; setupIntent: SetupIntent; paymentMethod: PaymentMethod } {
    const si = [...setupIntents.values()].find((x) => x.client_secret === clientSecret);
    if (!si) throw new Error('unknown client secret');
    const card = cardFor(number);
    if ('attachError' in card) {
      si.last_setup_error = { type: 'card_error', ...card.attachError };
      return { error: card.attachError, setupIntent: si };
    }
    const pm: PaymentMethod = {
      id: rid('pm'),
      object: 'payment_method',
      type: 'card',
      customer: si.customer,
      created: nowS(),
      livemode: false,
      metadata: {},
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: card.brand,
        last4: card.last4,
        exp_month: exp.month,
        exp_year: exp.year,
        funding: 'credit',
        country: 'US',
        display_brand: card.brand,
      },
    };
    paymentMethods.set(pm.id, pm);
    cards.set(pm.id, card);
    si.status = 'succeeded';
    si.payment_method = pm.id;
    return { setupIntent: si, paymentMethod: pm };
  }

  /** What Stripe.js does when the customer confirms the first payment (3-D Secure done). */
  function confirmInvoicePayment(invoiceId: string, paymentMethodId: string) {
    const inv = getInvoice(invoiceId);
    const card = cards.get(paymentMethodId);
    if (card?.behaviour === 'requires_action') card.behaviour = 'ok';
    pay(inv, paymentMethodId);
    const s = inv.subscription ? subscriptions.get(inv.subscription) : undefined;
    if (s) activate(s, paymentMethodId);
    return inv;
  }

  function event(type: string, object: unknown, id = rid('evt')): WireEvent {
    return {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowS(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  const clientSecretOf = (b: Json, id: string) => {
    const secret = str(b.client_secret);
    if (!secret.startsWith(`${id}_secret_`))
      throw invalid('The client_secret provided does not match the client_secret associated with this object.', 'client_secret');
    return secret;
  };

  // Stripe.js confirming a SetupIntent with the card typed into its Payment Element.
  browserRoute('POST', '/v1/setup_intents/([^/]+)/confirm', (m, b) => {
    const si = setupIntents.get(m[1]!);
    if (!si) throw missing('setup_intent', m[1]!);
    const secret = clientSecretOf(b, si.id);
    if (si.status === 'succeeded')
      throw new StripeWireError(400, {
        type: 'invalid_request_error',
        code: 'setup_intent_unexpected_state',
        message: 'You cannot confirm this SetupIntent because it has already succeeded.',
        setup_intent: si,
      });
    const data = (b.payment_method_data ?? {}) as { card?: { number?: string; exp_month?: string; exp_year?: string } };
    const card = data.card ?? {};
    const confirmed = confirmCardSetup(secret, str(card.number), { month: Number(card.exp_month), year: Number(card.exp_year) });
    if (confirmed.error) throw new StripeWireError(402, { type: 'card_error', ...confirmed.error, setup_intent: si });
    opts.onEvent?.(event('setup_intent.succeeded', { ...si }));
    return si;
  });

  // Stripe.js confirming the payment of a subscription's first invoice (after 3-D Secure).
  browserRoute('POST', '/v1/payment_intents/([^/]+)/confirm', (m, b) => {
    const secret = clientSecretOf(b, m[1]!);
    const inv = [...invoices.values()].find((i) => i.paymentSecret === secret);
    if (!inv) throw missing('payment_intent', m[1]!);
    confirmInvoicePayment(inv.id, str(b.payment_method));
    opts.onEvent?.(event('invoice.paid', invoiceView(inv, false)));
    return {
      id: m[1],
      object: 'payment_intent',
      status: 'succeeded',
      amount: inv.amount_paid,
      currency: inv.currency,
      livemode: false,
    };
  });

  // ---------- HTTP ----------

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' };

  function send(res: ServerResponse, status: number, body: string, replayed = false, cors = false) {
    res.writeHead(status, {
      ...(cors ? CORS : {}),
      'content-type': 'application/json',
      'request-id': rid('req'),
      'stripe-version': '2026-10-28.endive',
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const raw = await readBody(req);
    const body = req.method === 'POST' ? parseStripeForm(raw) : {};
    const query = parseStripeForm(url.search.slice(1));
    const key = req.headers['idempotency-key'] as string | undefined;
    const record: WireRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      body,
      idempotencyKey: key,
      replayed: false,
    };
    requests.push(record);
    const browser = opts.publishableKey ? browserRoutes.find(([m, re]) => m === req.method && re.test(url.pathname)) : undefined;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'POST' });
      return res.end();
    }
    if (browser) {
      // Stripe.js authenticates with the publishable key alone; the client secret names the object.
      if (body.key !== opts.publishableKey) {
        return send(
          res,
          401,
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
          false,
          true,
        );
      }
      try {
        return send(res, 200, JSON.stringify(browser[2](url.pathname.match(browser[1])!, body, query)), false, true);
      } catch (err) {
        if (!(err instanceof StripeWireError)) throw err;
        return send(res, err.status, JSON.stringify({ error: err.body }), false, true);
      }
    }
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) {
      return send(res, 401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
    }
    const fingerprint = `${req.method} ${url.pathname} ${raw}`;
    if (key && req.method === 'POST') {
      const seen = idempotency.get(key);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          return send(
            res,
            400,
            JSON.stringify({
              error: {
                type: 'idempotency_error',
                message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              },
            }),
          );
        }
        record.replayed = true;
        return send(res, seen.status, seen.body, true);
      }
    }
    let status = 200;
    let out: string;
    const match = routes.find(([m, re]) => m === req.method && re.test(url.pathname));
    try {
      if (!match)
        throw new StripeWireError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
        });
      out = JSON.stringify(match[2](url.pathname.match(match[1])!, body, query));
    } catch (err) {
      if (!(err instanceof StripeWireError)) throw err;
      status = err.status;
      out = JSON.stringify({ error: err.body });
    }
    // Stripe stores the answer of a keyed POST, errors included, and replays it.
    if (key && req.method === 'POST') idempotency.set(key, { fingerprint, status, body: out });
    send(res, status, out);
  }
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    paymentMethods,
    setupIntents,
    subscriptions,
    invoices,
    refunds,
    creditNotes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),

    confirmCardSetup,
    confirmInvoicePayment,

    /** Stripe's billing clock: the period of `subscriptionId` ends now and renews (or ends). */
    cycle(subscriptionId: string) {
      const s = getSub(subscriptionId);
      const end = s.item.current_period_end;
      if (s.cancel_at_period_end) {
        s.status = 'canceled';
        s.ended_at = end;
        return subscriptionView(s, []);
      }
      const price = prices.get(s.item.price)!;
      let n = 1;
      while (Math.floor(addIntervals(new Date(s.anchor * 1000), price.interval, n).getTime() / 1000) <= end) n++;
      const newEnd = Math.floor(addIntervals(new Date(s.anchor * 1000), price.interval, n).getTime() / 1000);
      const inv = makeInvoice(s, periodLines(s, s.item.quantity, price.id, end, newEnd), 'subscription_cycle');
      s.item.current_period_start = end;
      s.item.current_period_end = newEnd;
      s.latest_invoice = inv.id;
      try {
        pay(inv, s.default_payment_method ?? customers.get(s.customer)!.invoice_settings.default_payment_method);
      } catch {
        s.status = 'past_due';
      }
      return subscriptionView(s, []);
    },

    /**
     * One of Stripe's own retries of a past_due subscription's open invoice (Smart Retries), with
     * the subscription's card: paid → the subscription is active again. Answers whether it paid.
     */
    retryOpenInvoice(subscriptionId: string): boolean {
      const s = getSub(subscriptionId);
      const inv = invoices.get(s.latest_invoice!)!;
      try {
        pay(inv, s.default_payment_method ?? customers.get(s.customer)!.invoice_settings.default_payment_method);
      } catch {
        return false;
      }
      activate(s, null);
      return true;
    },

    /** Stripe's retries ran out and its settings say "cancel the subscription": ended, unpaid. */
    endUnpaid(subscriptionId: string) {
      const s = getSub(subscriptionId);
      s.status = 'canceled';
      s.canceled_at = nowS();
      s.ended_at = nowS();
      s.cancellation_details = { reason: 'payment_failed' };
      return subscriptionView(s, []);
    },

    subscriptionJson: (id: string) => subscriptionView(getSub(id), []),
    invoiceJson: (id: string) => invoiceView(getInvoice(id), false),

    /** A Stripe event envelope around a snapshot of `object`. */
    event,
  };
}
export type StripeWireServer = Awaited<ReturnType<typeof startStripeWireServer>>;
