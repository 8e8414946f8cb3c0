import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { ChangePreview, Interval, Invoice, PaymentMethod } from '@portal/contract';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { billingRepository as repo, type SubscriptionRow } from '../../modules/billing/billing.repository';
import { addIntervals } from '../../modules/billing/proration';
import type { OutboxService } from '../../modules/outbox/outbox.service';
import type { BillingProvider, PlannedChange } from './provider';
import { call, createStripeClient, toAppError } from './stripe-client';
import { fromUnix, idOf, STATUS, toInvoice } from './stripe-mapping';
import { verifyStripeEvent } from './stripe-webhook';

/**
 * Stripe through its official SDK. Every POST carries an idempotency key derived from our own
 * operation id (`<op>:<step>`), so the SDK's retries and our own retries (outbox, double submits)
 * never create or charge twice. Subscriptions are mirrored into our subscriptions row; invoices and
 * cards are read live.
 */
export function createStripeAdapter(deps: {
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  outbox: OutboxService;
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

  /** Writes Stripe's current state of a subscription onto our row (inserting it when new). */
  async function mirror(
    tx: Tx,
    s: Stripe.Subscription,
    extra: { userId?: string; checkoutKey?: string } = {},
  ): Promise<{ before?: SubscriptionRow; row?: SubscriptionRow }> {
    const now = deps.clock.now();
    const item = s.items.data[0];
    const legacy = s as unknown as { current_period_start?: number; current_period_end?: number };
    const fields = {
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
      updatedAt: now,
    };
    const update = async (before: SubscriptionRow) => ({
      before,
      row: await repo.updateSubscription(tx, before.id, {
        ...fields,
        ...(extra.checkoutKey && !before.checkoutKey ? { checkoutKey: extra.checkoutKey } : {}),
      }),
    });
    const existing = await repo.findSubscriptionByProviderId(tx, s.id, true);
    if (existing) return update(existing);
    const userId = extra.userId ?? (await repo.findCustomerByProviderId(tx, idOf(s.customer) ?? ''))?.userId;
    if (!userId) return {};
    const row = await repo.insertSubscriptionIfAbsent(tx, {
      ...fields,
      providerId: s.id,
      userId,
      provider: 'stripe',
      plan: deps.config.pricing.plan,
      checkoutKey: extra.checkoutKey ?? null,
      createdAt: now,
    });
    if (row) return { row };
    // Our checkout and Stripe's webhook raced; the other one inserted it (and waited for us here).
    return update((await repo.findSubscriptionByProviderId(tx, s.id, true))!);
  }

  const toCard = (pm: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod => ({
    id: pm.id,
    brand: pm.card?.brand ?? 'unknown',
    last4: pm.card?.last4 ?? '',
    expMonth: pm.card?.exp_month ?? 0,
    expYear: pm.card?.exp_year ?? 0,
    isDefault: pm.id === defaultId,
  });

  async function update(
    tx: Tx,
    sub: SubscriptionRow,
    params: Stripe.SubscriptionUpdateParams,
    key: string,
  ): Promise<SubscriptionRow> {
    const s = await call(() => stripe.subscriptions.update(sub.providerId, params, { idempotencyKey: key }));
    const { row } = await mirror(tx, s);
    return row ?? sub;
  }

  const adapter = {
    kind: 'stripe' as const,
    publishableKey: cfg.publishableKey,

    async lockCustomer(tx, billTo) {
      const existing = await repo.lockCustomer(tx, billTo.userId);
      if (existing?.provider === 'stripe') return existing;
      // Keyed by our user id: two first requests at once get the same Stripe customer.
      const customer = await call(() =>
        stripe.customers.create(
          { email: billTo.email, name: billTo.name || undefined, metadata: { userId: billTo.userId } },
          { idempotencyKey: `customer:${billTo.userId}` },
        ),
      );
      // A customer of the local engine (the vendor moved to Stripe) starts afresh at Stripe.
      if (existing) await repo.replaceCustomer(tx, billTo.userId, 'stripe', customer.id, deps.clock.now());
      else {
        await repo.insertCustomer(tx, {
          userId: billTo.userId,
          provider: 'stripe',
          providerCustomerId: customer.id,
          createdAt: deps.clock.now(),
        });
      }
      return (await repo.lockCustomer(tx, billTo.userId))!;
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

    async setSubscriptionCard(tx, sub, cardId, opId) {
      return update(tx, sub, { default_payment_method: cardId }, `${opId}:card:${sub.providerId}`);
    },

    async detachCard(_tx, _customerId, cardId, opId) {
      await call(() => stripe.paymentMethods.detach(cardId, {}, { idempotencyKey: `${opId}:detach` }));
    },

    async createSubscription(tx, input) {
      const key = `checkout:${input.checkoutKey}`;
      let s: Stripe.Subscription = await call(() =>
        stripe.subscriptions.create(
          {
            customer: input.customer.providerCustomerId,
            items: [{ price: priceOf(input.interval), quantity: input.quantity }],
            payment_behavior: 'default_incomplete',
            payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
            ...(input.cardId ? { default_payment_method: input.cardId } : {}),
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
      const { row, before } = await mirror(tx, s, { userId: input.billTo.userId, checkoutKey: input.checkoutKey });
      return { row: row!, ...(before ? { before } : {}), ...(s.status === 'incomplete' && clientSecret ? { clientSecret } : {}) };
    },

    async changeQuantity(tx, sub, quantity, _billTo, opId) {
      const current = await retrieveSubscription(sub.providerId);
      const item = current.items.data[0]!;
      const row = await update(
        tx,
        sub,
        { items: [{ id: item.id, quantity }], proration_behavior: 'always_invoice', payment_behavior: 'error_if_incomplete' },
        `${opId}:quantity`,
      );
      return { row };
    },

    async changeInterval(tx, sub, interval, _billTo, opId) {
      const current = await retrieveSubscription(sub.providerId);
      const item = current.items.data[0]!;
      const row = await update(
        tx,
        sub,
        {
          items: [{ id: item.id, price: priceOf(interval) }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
        },
        `${opId}:interval`,
      );
      return { row };
    },

    async setCancelAtPeriodEnd(tx, sub, cancel, opId) {
      return update(tx, sub, { cancel_at_period_end: cancel }, `${opId}:${cancel ? 'cancel' : 'reactivate'}`);
    },

    async cancelNow(tx, sub, opId) {
      const now = deps.clock.now();
      const row = await repo.updateSubscription(tx, sub.id, {
        status: 'canceled',
        cancelAtPeriodEnd: false,
        canceledAt: now,
        currentPeriodEnd: sub.currentPeriodEnd < now ? sub.currentPeriodEnd : now,
        updatedAt: now,
      });
      await deps.outbox.enqueue(tx, 'billing.stripe.cancel', { subscriptionId: sub.providerId, opId });
      return row;
    },

    async detachAllCards(tx, customerId, opId) {
      await deps.outbox.enqueue(tx, 'billing.stripe.detach-cards', { customerId, opId });
    },

    async preview(_tx, sub, change: PlannedChange, customerId) {
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
          },
          // A preview writes nothing, but every POST carries a key of its own operation.
          { idempotencyKey: `preview:${randomUUID()}` },
        ),
      );
      const total = inv.total ?? inv.amount_due;
      const interval = change.interval ?? (sub.interval as Interval);
      const unit =
        change.interval === undefined
          ? sub.unitAmount
          : (deps.config.pricing[interval === 'month' ? 'monthUnitAmount' : 'yearUnitAmount'] as number);
      return {
        amountDue: inv.amount_due,
        subtotal: total,
        creditApplied: Math.max(0, total - inv.amount_due),
        currency: inv.currency,
        nextRenewalAt: (change.interval ? addIntervals(now, change.interval, 1) : sub.currentPeriodEnd).toISOString(),
        nextRenewalAmount: unit * (change.quantity ?? sub.quantity),
        lines: inv.lines.data.map((l) => ({
          description: l.description ?? '',
          quantity: l.quantity ?? 1,
          unitAmount: Math.round(Number(String(l.pricing?.unit_amount_decimal ?? l.amount / (l.quantity || 1)))),
          amount: l.amount,
          periodStart: fromUnix(l.period.start).toISOString(),
          periodEnd: fromUnix(l.period.end).toISOString(),
        })),
      } satisfies ChangePreview;
    },

    async listInvoices(_tx, sub) {
      const list = await call(() => stripe.invoices.list({ subscription: sub.providerId, limit: 100 }));
      return list.data.map((i): Invoice => toInvoice(i));
    },
  } satisfies BillingProvider;

  // Provider calls that follow a local commit (account deletion): retried by the outbox with the
  // same idempotency keys until Stripe has them.
  deps.outbox.on('billing.stripe.cancel', async (p) => {
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
  deps.outbox.on('billing.stripe.detach-cards', async (p) => {
    const customerId = p.customerId;
    const methods = await stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 });
    for (const pm of methods.data) {
      await stripe.paymentMethods.detach(pm.id, {}, { idempotencyKey: `${p.opId}:detach:${pm.id}` });
    }
  });

  return {
    ...adapter,
    stripe,
    mirror,
    retrieveSubscription,
    /**
     * A past_due subscription gets a working card: it pays for the subscription from now on, and
     * the open invoice is paid with it at once (not at Stripe's next retry).
     */
    async retryWithCard(tx: Tx, sub: SubscriptionRow, cardId: string, opId: string): Promise<void> {
      await adapter.setSubscriptionCard(tx, sub, cardId, opId);
      const invoiceId = idOf((await retrieveSubscription(sub.providerId)).latest_invoice);
      if (!invoiceId) return;
      const invoice = await call(() => stripe.invoices.retrieve(invoiceId));
      if (invoice.status !== 'open') return;
      await call(() =>
        stripe.invoices.pay(invoiceId, { payment_method: cardId }, { idempotencyKey: `${opId}:pay:${invoiceId}` }),
      );
      await mirror(tx, await retrieveSubscription(sub.providerId));
    },

    async retrieveInvoice(id: string) {
      return call(() => stripe.invoices.retrieve(id));
    },
    async retrieveSetupIntent(id: string) {
      return call(() => stripe.setupIntents.retrieve(id));
    },
    /** The owner's Stripe invoice (its hosted page), or undefined for anyone else's. */
    async invoiceForCustomer(customerId: string, id: string) {
      if (!/^in_[A-Za-z0-9]+$/.test(id)) return undefined;
      try {
        const inv = await stripe.invoices.retrieve(id);
        return idOf(inv.customer) === customerId ? toInvoice(inv) : undefined;
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) return undefined;
        throw err;
      }
    },
    /** Verifies a webhook against the raw body and our clock; throws 400 with the reason. */
    verifyEvent(raw: Buffer, signature: string | undefined): Stripe.Event {
      return verifyStripeEvent(stripe, cfg.webhookSecret, deps.clock.now(), raw, signature);
    },
  };
}
export type StripeAdapter = ReturnType<typeof createStripeAdapter>;
