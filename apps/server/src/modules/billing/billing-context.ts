import type { FastifyBaseLogger } from 'fastify';
import type { PaymentFailing, Subscription } from '@portal/contract';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { BillTo, PaymentGateway, Receipt, StatePatch } from '../../providers/billing/gateway';
import { createLocalGateway } from '../../providers/billing/local/local-gateway';
import { createStripeGateway } from '../../providers/billing/stripe/stripe-gateway';
import type { VatRegistry } from '../../providers/vies/vies';
import type { AuditService } from '../audit/audit.service';
import type { EmailJob } from '../email/email-job';
import type { LicenseService } from '../licenses/licenses.service';
import type { OutboxService } from '../outbox/outbox.service';
import { billingRepository as repo, type CustomerRow, type SubscriptionRow } from './billing.repository';
import { billingDetailsRepository } from './billing-details.repository';
import { createInvoiceTerms } from './invoice-terms';
import { describe } from './lifecycle';
import { loadTaxRates } from './tax/tax-rates';
import { openInvoiceOf as openInvoice, paymentFailingOf } from './payment-failing';
import { createTransition, type LicenseEffect } from './transition';

/** What billing needs from the licenses domain; every writing call joins billing's transaction. */
export type BillingLicenses = Pick<
  LicenseService,
  | 'issue'
  | 'resizeForSubscription'
  | 'refuseShrinkBelowNodes'
  | 'setGraceForSubscription'
  | 'extendForSubscription'
  | 'expireForSubscription'
  | 'keysBySubscription'
>;

export type BillingDeps = {
  config: Pick<Config, 'publicUrl' | 'pricing' | 'stripe' | 'payments' | 'seller' | 'tax' | 'brand'>;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  audit: Pick<AuditService, 'record'>;
  outbox: Pick<OutboxService, 'enqueue' | 'on' | 'kick'>;
  licenses: BillingLicenses;
  /** VIES, the EU's VAT number check (billing-details.ts). */
  vat: VatRegistry;
};

/** The signed-in user as billing sees them. */
export type BillingUser = { id: string; email: string; fname: string; lname: string };

export const SYSTEM = 'system';
export const billToOf = (u: BillingUser): BillTo => ({ userId: u.id, email: u.email, name: `${u.fname} ${u.lname}`.trim() });

export type { OpenInvoice } from './payment-failing';

export function toSubscription(
  row: SubscriptionRow,
  licenseKey: string | null,
  paymentFailing: PaymentFailing | null,
): Subscription {
  return {
    stripeId: row.providerId,
    status: row.status,
    quantity: row.quantity,
    interval: row.interval,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    endedReason: row.endedReason,
    plan: row.plan,
    unitAmount: row.unitAmount,
    currency: row.currency,
    licenseKey,
    paymentFailing,
  };
}

/**
 * What every billing use case shares: the gateways, and the few steps each of them takes the same
 * way (writing a gateway's state, the license following the subscription, receipts).
 */
export function createBillingContext(deps: BillingDeps) {
  const { config, clock, log, outbox, licenses } = deps;
  const rates = loadTaxRates(config.tax.ratesFile);
  const terms = createInvoiceTerms({ seller: config.seller, rates });
  const local = createLocalGateway({ pricing: config.pricing, clock, terms });
  const stripe = config.stripe ? createStripeGateway({ config, clock, log, deferred: outbox }) : undefined;
  /** New customers, cards and subscriptions go to the configured provider. */
  const gateway: PaymentGateway = stripe ?? local;
  /** An existing subscription stays with the provider that holds it. */
  const gatewayFor = (kind: string): PaymentGateway => (kind === 'stripe' && stripe ? stripe : local);
  /**
   * The gateway that renews this subscription's periods itself, if any: the local engine for its
   * own subscriptions (a Stripe subscription is renewed by Stripe, even while Stripe is not
   * configured here any more).
   */
  const renewerOf = (sub: { provider: string }) => {
    const g = gatewayFor(sub.provider);
    return g.kind === sub.provider ? g.renewals : undefined;
  };
  /** Every gateway that may hold something of a customer's (the local engine keeps what it had). */
  const gateways: PaymentGateway[] = stripe ? [local, stripe] : [local];
  const billingUrl = `${config.publicUrl}/app/billing`;

  /** The failing payment of a past_due subscription, as the portal shows it (null otherwise). */
  const paymentFailing = (tx: Tx, row: SubscriptionRow) =>
    paymentFailingOf(tx, row, { graceDays: config.payments.graceDays, gatewayFor, log });

  async function withKey(row: SubscriptionRow): Promise<Subscription> {
    const keys = await licenses.keysBySubscription([row.id]);
    return toSubscription(row, keys.get(row.id) ?? null, await paymentFailing(deps.db, row));
  }

  /** Writes a gateway's answer onto our record (an answer that changes nothing writes nothing). */
  async function applyState(tx: Tx, sub: SubscriptionRow, state: StatePatch): Promise<SubscriptionRow> {
    if (Object.keys(state).length === 0) return sub;
    return repo.updateSubscription(tx, sub.id, { ...state, updatedAt: clock.now() });
  }

  /** Queues a templated e-mail in the caller's transaction (rendered in the brand's layout when sent). */
  async function sendMail(tx: Tx, m: EmailJob) {
    await outbox.enqueue(tx, 'email', m);
  }

  /** The open invoice of a failing payment (past_due), from the gateway that holds it. */
  const openInvoiceOf = (tx: Tx, sub: SubscriptionRow) => openInvoice(tx, sub, gatewayFor);

  /** Whether the portal e-mails the customer about a failing payment: not where Stripe does (STRIPE_SENDS_DUNNING). */
  const sendsDunningOf = (row: Pick<SubscriptionRow, 'provider'>) => row.provider !== 'stripe' || !config.stripe?.sendsDunning;

  async function sendReceipt(tx: Tx, billTo: BillTo, inv: Receipt, row: SubscriptionRow) {
    if (inv.status !== 'paid' || inv.amountPaid <= 0) return;
    // One receipt per payment: where Stripe e-mails its own, the portal sends none (ADR 027).
    if (row.provider === 'stripe' && config.stripe?.sendsReceipts) return;
    // The built-in engine's invoice goes with it as its PDF (Stripe's receipt links its hosted invoice).
    const attach = row.provider === 'local' ? [{ kind: 'invoice' as const, id: inv.id }] : undefined;
    const data = {
      number: inv.number,
      amountPaid: inv.amountPaid,
      currency: inv.currency,
      paidAt: inv.createdAt.toISOString(),
      summary: describe(row),
      lines: inv.lines.map((l) => ({
        description: l.description ?? describe(row),
        quantity: l.quantity,
        amount: l.amount,
        periodStart: l.periodStart.toISOString(),
        periodEnd: l.periodEnd.toISOString(),
      })),
      url: inv.url === null ? billingUrl : inv.url.startsWith('/') ? `${config.publicUrl}${inv.url}` : inv.url,
    };
    for (const to of await billingAddressesOf(tx, billTo)) {
      await sendMail(tx, { to, template: 'receipt', data, ...(attach ? { attach } : {}) });
    }
  }

  /**
   * Where a billing document goes: the account's address, then each extra recipient of the billing
   * details as they are now, each its own message (ADR 114): no recipient sees the others'
   * addresses, and one that fails is retried alone.
   */
  async function billingAddressesOf(tx: Tx, billTo: Pick<BillTo, 'userId' | 'email'>): Promise<string[]> {
    const details = await billingDetailsRepository.find(tx, billTo.userId);
    const addresses = new Map<string, string>([[billTo.email.toLowerCase(), billTo.email]]);
    for (const r of details?.recipients ?? []) if (!addresses.has(r.toLowerCase())) addresses.set(r.toLowerCase(), r);
    return [...addresses.values()];
  }

  async function billToFor(tx: Tx, userId: string | null): Promise<BillTo | undefined> {
    if (!userId) return undefined;
    const u = await repo.findBillTo(tx, userId);
    return u ? billToOf(u) : undefined;
  }

  /** The user's customer at the configured provider, made there on first use; locked until the transaction ends. */
  async function lockCustomer(tx: Tx, billTo: BillTo): Promise<CustomerRow> {
    const existing = await repo.lockCustomer(tx, billTo.userId);
    if (existing?.provider === gateway.kind) return existing;
    const providerCustomerId = await gateway.createCustomer(billTo);
    // A customer of another provider (the vendor switched engines) starts afresh at this one.
    if (existing) await repo.replaceCustomer(tx, billTo.userId, gateway.kind, providerCustomerId, clock.now());
    else {
      await repo.insertCustomer(tx, {
        userId: billTo.userId,
        provider: gateway.kind,
        providerCustomerId,
        createdAt: clock.now(),
      });
    }
    return (await repo.lockCustomer(tx, billTo.userId))!;
  }

  /** The user's customer id at the configured provider, if they have one there. */
  async function customerIdOf(tx: Tx, userId: string): Promise<string | undefined> {
    const c = await repo.findCustomer(tx, userId);
    return c && c.provider === gateway.kind ? c.providerCustomerId : undefined;
  }

  /** One effect of a subscription's change on its licenses (derived by transition.licenseEffects). */
  async function applyLicense(tx: Tx, after: SubscriptionRow, effect: LicenseEffect, actor: string) {
    if (effect.kind === 'issue') {
      await licenses.issue(tx, {
        userId: after.userId,
        subscriptionId: after.id,
        maxNodes: effect.maxNodes,
        expiresAt: effect.expiresAt,
        actor,
      });
    } else if (effect.kind === 'resize') {
      try {
        await licenses.resizeForSubscription(tx, after.id, effect.maxNodes, actor);
      } catch (err) {
        // Changed at the provider below the nodes in use: the license keeps its size until nodes are released.
        if (!(effect.lenient && err instanceof AppError && err.code === 'CONFLICT')) throw err;
        log.warn({ subscription: after.providerId, message: err.message }, 'license not resized');
      }
    } else if (effect.kind === 'align') {
      await alignLicense(tx, after.id, effect.expiresAt, actor);
      await licenses.setGraceForSubscription(tx, after.id, effect.grace ? effect.expiresAt : null);
    } else {
      await licenses.expireForSubscription(tx, after.id, effect.at, actor);
      await licenses.setGraceForSubscription(tx, after.id, null);
    }
  }

  const transition = createTransition({
    applyState,
    applyLicense,
    record: (tx, event) => deps.audit.record(tx, event),
    now: () => clock.now(),
    graceDays: config.payments.graceDays,
  });

  /**
   * The license ends with the paid period (or the grace). A switch from yearly to monthly moves that
   * end earlier (the unused time became account credit), which `extend` alone never does.
   */
  async function alignLicense(tx: Tx, subscriptionId: string, periodEnd: Date, actor: string) {
    await licenses.extendForSubscription(tx, subscriptionId, periodEnd, actor);
    await licenses.expireForSubscription(tx, subscriptionId, periodEnd, actor);
  }

  return {
    ...deps,
    terms,
    local,
    stripe,
    gateway,
    gatewayFor,
    renewerOf,
    gateways,
    billingUrl,
    withKey,
    paymentFailing,
    applyState,
    sendMail,
    sendReceipt,
    billingAddressesOf,
    sendsDunningOf,
    openInvoiceOf,
    billToFor,
    lockCustomer,
    customerIdOf,
    transition,
  };
}
export type BillingContext = ReturnType<typeof createBillingContext>;
