import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { Interval, Invoice, PaymentMethod } from '@portal/contract';
import type { Config } from '../../../config';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { PaymentGateway, ProviderSubscription, Receipt, StatePatch, SubscriptionRecord } from '../gateway';
import { addIntervals } from '../local/proration';
import { call, createStripeClient, toAppError } from './stripe-client';
import type { DeferredWork } from './stripe-jobs';
import { endReasonOf, fromUnix, idOf, periodOf, STATUS, toChangePreview, toInvoice } from './stripe-mapping';
import { createStripeRefunds } from './stripe-refunds';
import { createStripeTax, stripeTaxLines } from './stripe-tax';
import { jobFor, verifyStripeEvent } from './stripe-webhook';

/**
 * Stripe through its official SDK. Every POST carries an idempotency key derived from our own
 * operation id (`<op>:<step>`), so the SDK's retries and our own retries (outbox, double submits)
 * never create or charge twice. Billing mirrors Stripe's subscriptions onto its records from the
 * state this gateway answers; invoices and cards are read live.
 */
export function createStripeGateway(deps: {
  config: Pick<Config, 'stripe' | 'pricing'>;
  clock: Clock;
  log: { warn: (details: Record<string, unknown>, message: string) => void };
  deferred: DeferredWork;
  stripe?: Stripe;
}) {
  const cfg = deps.config.stripe!;
  const stripe = deps.stripe ?? createStripeClient(cfg);
  const priceOf = (interval: Interval) => {
    const price = interval === 'month' ? cfg.priceMonth : cfg.priceYear;
    if (!price) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'Subscriptions are not available yet: the vendor has not configured its Stripe prices.',
      );
    }
    return price;
  };

  async function retrieveSubscription(id: string): Promise<Stripe.Subscription> {
    return call(() => stripe.subscriptions.retrieve(id));
  }

  /** Stripe's current state of a subscription, in billing's terms. */
  function stateOf(s: Stripe.Subscription): ProviderSubscription {
    const item = s.items.data[0];
    const legacy = s as unknown as { current_period_start?: number; current_period_end?: number };
    return {
      providerId: s.id,
      status: STATUS[s.status] ?? 'past_due',
      quantity: item?.quantity ?? 1,
      interval: item?.price.recurring?.interval === 'year' ? 'year' : 'month',
      unitAmount: item?.price.unit_amount ?? 0,
      currency: s.currency,
      paymentMethodId: idOf(s.default_payment_method),
      currentPeriodStart: fromUnix(item?.current_period_start ?? legacy.current_period_start ?? s.start_date),
      currentPeriodEnd: fromUnix(item?.current_period_end ?? legacy.current_period_end ?? s.start_date),
      cancelAtPeriodEnd: s.cancel_at_period_end,
      canceledAt: s.canceled_at ? fromUnix(s.canceled_at) : null,
      ...(STATUS[s.status] === 'canceled' ? { endedReason: endReasonOf(s) } : {}),
    };
  }
  const patchOf = (s: Stripe.Subscription): StatePatch => {
    const { providerId: _id, ...state } = stateOf(s);
    return state;
  };

  const toCard = (pm: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod => ({
    id: pm.id,
    brand: pm.card?.brand ?? 'unknown',
    last4: pm.card?.last4 ?? '',
    expMonth: pm.card?.exp_month ?? 0,
    expYear: pm.card?.exp_year ?? 0,
    isDefault: pm.id === defaultId,
  });

  async function update(sub: SubscriptionRecord, params: Stripe.SubscriptionUpdateParams, key: string): Promise<StatePatch> {
    return patchOf(await call(() => stripe.subscriptions.update(sub.providerId, params, { idempotencyKey: key })));
  }

  async function changeItem(sub: SubscriptionRecord, change: { quantity: number } | { price: string }, key: string) {
    const item = (await retrieveSubscription(sub.providerId)).items.data[0]!;
    const state = await update(
      sub,
      { items: [{ id: item.id, ...change }], proration_behavior: 'always_invoice', payment_behavior: 'error_if_incomplete' },
      key,
    );
    return { state };
  }

  /** An invoice as the receipt e-mail tells it (lines without a description get the subscription's). */
  function toReceipt(inv: Stripe.Invoice): Receipt {
    const view = toInvoice(inv);
    return {
      id: view.id,
      number: view.number,
      status: view.status,
      amountDue: view.amountDue,
      amountPaid: view.amountPaid,
      currency: view.currency,
      createdAt: new Date(view.created),
      lines: (inv.lines?.data ?? []).map((l) => ({
        description: l.description ?? null,
        quantity: l.quantity ?? 1,
        amount: l.amount,
        periodStart: fromUnix(l.period.start),
        periodEnd: fromUnix(l.period.end),
      })),
      url: view.url,
      held: {
        amountDue: inv.amount_due,
        subscriptionId: idOf(inv.parent?.subscription_details?.subscription ?? null),
        ...periodOf(inv),
        createdAt: fromUnix(inv.created),
      },
    };
  }

  async function listInvoices(sub: SubscriptionRecord): Promise<Invoice[]> {
    const list = await call(() => stripe.invoices.list({ subscription: sub.providerId, limit: 100 }));
    return list.data.map((i) => toInvoice(i));
  }

  /** The owner's Stripe invoice, or undefined for anyone else's. */
  async function invoiceForCustomer(customerId: string, id: string) {
    if (!/^in_[A-Za-z0-9]+$/.test(id)) return undefined;
    try {
      const inv = await stripe.invoices.retrieve(id);
      return idOf(inv.customer) === customerId ? toInvoice(inv) : undefined;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return undefined;
      throw err;
    }
  }

  // Provider calls that follow a local commit (account deletion): retried by the outbox with the
  // same idempotency keys until Stripe has them.
  deps.deferred.on('billing.stripe.cancel', async (p) => {
    const id = p.subscriptionId;
    try {
      await stripe.subscriptions.cancel(id, { invoice_now: false, prorate: false }, { idempotencyKey: `${p.opId}:cancel:${id}` });
    } catch (err) {
      const e = err as { code?: string; statusCode?: number; message?: string };
      // Already gone at Stripe: the job is done.
      if (e.code === 'resource_missing' || e.statusCode === 404 || /canceled/i.test(e.message ?? '')) return;
      throw err;
    }
  });
  deps.deferred.on('billing.stripe.detach-cards', async (p) => {
    const methods = await stripe.customers.listPaymentMethods(p.customerId, { type: 'card', limit: 100 });
    for (const pm of methods.data) {
      await stripe.paymentMethods.detach(pm.id, {}, { idempotencyKey: `${p.opId}:detach:${pm.id}` });
    }
  });

  return {
    kind: 'stripe',
    publishableKey: cfg.publishableKey,

    async createCustomer(billTo) {
      // Keyed by our user id: two first requests at once get the same Stripe customer.
      const customer = await call(() =>
        stripe.customers.create(
          { email: billTo.email, name: billTo.name || undefined, metadata: { userId: billTo.userId } },
          { idempotencyKey: `customer:${billTo.userId}` },
        ),
      );
      return customer.id;
    },

    async createSetupIntent(_tx, customerId, opId) {
      const si = await call(() =>
        stripe.setupIntents.create(
          { customer: customerId, allowed_payment_method_types: ['card'], usage: 'off_session' },
          { idempotencyKey: `${opId}:setup-intent` },
        ),
      );
      return si.client_secret ?? '';
    },

    async listCards(_tx, customerId) {
      const [customer, methods] = await Promise.all([
        call(() => stripe.customers.retrieve(customerId)),
        call(() => stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 })),
      ]);
      const defaultId =
        'deleted' in customer && customer.deleted
          ? null
          : idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method);
      return methods.data.map((pm) => toCard(pm, defaultId));
    },

    async setDefaultCard(_tx, customerId, cardId, opId) {
      await call(() =>
        stripe.customers.update(
          customerId,
          { invoice_settings: { default_payment_method: cardId } },
          { idempotencyKey: `${opId}:default-card` },
        ),
      );
    },

    async setSubscriptionCard(_tx, sub, cardId, opId) {
      return update(sub, { default_payment_method: cardId }, `${opId}:card:${sub.providerId}`);
    },

    async detachCard(_tx, _customerId, cardId, opId) {
      await call(() => stripe.paymentMethods.detach(cardId, {}, { idempotencyKey: `${opId}:detach` }));
    },

    async detachAllCards(tx, customerId, opId) {
      await deps.deferred.enqueue(tx, 'billing.stripe.detach-cards', { customerId, opId });
    },

    async createSubscription(_tx, input, save) {
      const key = `checkout:${input.checkoutKey}`;
      let s: Stripe.Subscription = await call(() =>
        stripe.subscriptions.create(
          {
            customer: input.customerId,
            items: [{ price: priceOf(input.interval), quantity: input.quantity }],
            payment_behavior: 'default_incomplete',
            payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
            ...(input.cardId ? { default_payment_method: input.cardId } : {}),
            ...(cfg.tax ? { automatic_tax: { enabled: true } } : {}),
            expand: ['latest_invoice.confirmation_secret'],
            metadata: { userId: input.billTo.userId, checkoutKey: input.checkoutKey },
          },
          { idempotencyKey: key },
        ),
      );
      const invoice = typeof s.latest_invoice === 'object' ? s.latest_invoice : null;
      let clientSecret = invoice?.confirmation_secret?.client_secret ?? undefined;
      if (s.status === 'incomplete' && input.cardId && invoice) {
        // The customer chose a saved card: charge it now, so the answer is final (or a 402).
        try {
          await stripe.invoices.pay(invoice.id!, { payment_method: input.cardId }, { idempotencyKey: `${key}:pay` });
          s = await retrieveSubscription(s.id);
          clientSecret = undefined;
        } catch (err) {
          // 3-D Secure: the browser finishes the payment with the client secret.
          if ((err as { code?: string }).code !== 'invoice_payment_intent_requires_action') {
            // Nothing is kept on our side, and the half-made subscription is not left at Stripe.
            await stripe.subscriptions.cancel(s.id, {}, { idempotencyKey: `${key}:abandon` }).catch(() => {});
            throw toAppError(err);
          }
        }
      }
      const saved = await save(stateOf(s));
      return { ...saved, ...(s.status === 'incomplete' && clientSecret ? { clientSecret } : {}) };
    },

    async changeQuantity(_tx, sub, quantity, _billTo, opId) {
      return changeItem(sub, { quantity }, `${opId}:quantity`);
    },

    async changeInterval(_tx, sub, interval, _billTo, opId) {
      return changeItem(sub, { price: priceOf(interval) }, `${opId}:interval`);
    },

    async setCancelAtPeriodEnd(_tx, sub, cancel, opId) {
      return update(sub, { cancel_at_period_end: cancel }, `${opId}:${cancel ? 'cancel' : 'reactivate'}`);
    },

    async cancelNow(tx, sub, opId) {
      await deps.deferred.enqueue(tx, 'billing.stripe.cancel', { subscriptionId: sub.providerId, opId });
    },

    /**
     * The subscription's open invoice is paid with the card at once (not at Stripe's next retry).
     * Declined again, this throws; Stripe reports it (invoice.payment_failed) and keeps retrying.
     */
    async payOpenInvoices(_tx, sub, _customerId, cardId, opId) {
      const invoiceId = idOf((await retrieveSubscription(sub.providerId)).latest_invoice);
      if (!invoiceId) return { state: {}, paid: [] };
      const invoice = await call(() => stripe.invoices.retrieve(invoiceId));
      if (invoice.status !== 'open') return { state: {}, paid: [] };
      await call(() =>
        stripe.invoices.pay(invoiceId, { payment_method: cardId }, { idempotencyKey: `${opId}:pay:${invoiceId}` }),
      );
      // Stripe's invoice.paid webhook sends the receipt; the state is mirrored now.
      return { state: patchOf(await retrieveSubscription(sub.providerId)), paid: [] };
    },

    async preview(_tx, sub, change, customerId) {
      const current = await retrieveSubscription(sub.providerId);
      const item = current.items.data[0]!;
      const now = deps.clock.now();
      const inv = await call(() =>
        stripe.invoices.createPreview(
          {
            customer: customerId,
            subscription: sub.providerId,
            subscription_details: {
              items: [
                change.quantity !== undefined
                  ? { id: item.id, quantity: change.quantity }
                  : { id: item.id, price: priceOf(change.interval!) },
              ],
              proration_behavior: 'always_invoice',
              proration_date: Math.floor(now.getTime() / 1000),
            },
            // The preview taxes as the change will: Stripe Tax where the subscription has it on.
            ...(cfg.tax && current.automatic_tax?.enabled ? { automatic_tax: { enabled: true } } : {}),
          },
          // A preview writes nothing, but every POST carries a key of its own operation.
          { idempotencyKey: `preview:${randomUUID()}` },
        ),
      );
      const interval = change.interval ?? sub.interval;
      const unit =
        change.interval === undefined
          ? sub.unitAmount
          : (deps.config.pricing[interval === 'month' ? 'monthUnitAmount' : 'yearUnitAmount'] as number);
      const view = toChangePreview(inv, {
        nextRenewalAt: change.interval ? addIntervals(now, change.interval, 1) : sub.currentPeriodEnd,
        nextRenewalAmount: unit * (change.quantity ?? sub.quantity),
      });
      return view.tax !== undefined && cfg.tax ? { ...view, taxLines: await stripeTaxLines(stripe, inv) } : view;
    },

    async listInvoices(_tx, sub) {
      return listInvoices(sub);
    },

    async invoiceDocument(_tx, owner, id) {
      const hosted = owner.customerId ? await invoiceForCustomer(owner.customerId, id) : undefined;
      return hosted?.url ? { redirect: hosted.url } : undefined;
    },

    async exportInvoices(_tx, _userId, subs) {
      const out: Record<string, unknown>[] = [];
      for (const sub of subs.filter((s) => s.provider === 'stripe')) {
        try {
          const items = await listInvoices(sub);
          out.push(...items.map((i) => ({ ...i, subscription: sub.providerId })));
        } catch (err) {
          // The rest of the export is still worth having; this subscription's invoices stay at Stripe.
          deps.log.warn({ err, subscription: sub.providerId }, 'Stripe invoices left out of the export');
        }
      }
      return out;
    },

    async anonymiseCustomer() {
      // Stripe keeps its own invoices; the customer object is left to the vendor's Stripe retention.
    },

    ...createStripeRefunds(stripe),
    ...(cfg.tax ? { tax: createStripeTax(stripe, priceOf) } : {}),

    events: {
      verify(raw, signature) {
        const event = verifyStripeEvent(stripe, cfg.webhookSecret, deps.clock.now(), raw, signature);
        return { id: event.id, type: event.type, job: jobFor(event) };
      },
      /** Re-reads the object at Stripe (never the event's snapshot) and says what it means. */
      async read(job) {
        if (job.object === 'subscription') {
          const s = await retrieveSubscription(job.id);
          return { type: 'subscription_changed', subscription: stateOf(s), customerId: idOf(s.customer) };
        }
        if (job.object === 'invoice') {
          const inv = await call(() => stripe.invoices.retrieve(job.id));
          const subId = inv.parent?.subscription_details?.subscription;
          const id = typeof subId === 'string' ? subId : subId?.id;
          if (!id) return null;
          const s = await retrieveSubscription(id);
          const paid = job.eventType === 'invoice.paid' && inv.status === 'paid' && inv.amount_paid > 0;
          const failed = job.eventType === 'invoice.payment_failed' && inv.status === 'open';
          return {
            type: 'subscription_changed',
            subscription: stateOf(s),
            customerId: idOf(s.customer),
            ...(paid ? { receipt: toReceipt(inv) } : {}),
            ...(failed ? { failedInvoice: toReceipt(inv) } : {}),
          };
        }
        const si = await call(() => stripe.setupIntents.retrieve(job.id));
        const customerId = idOf(si.customer);
        const cardId = idOf(si.payment_method);
        if (si.status !== 'succeeded' || !customerId || !cardId) return null;
        return { type: 'card_attached', customerId, cardId };
      },
    },
  } satisfies PaymentGateway;
}
export type StripeGateway = ReturnType<typeof createStripeGateway>;
