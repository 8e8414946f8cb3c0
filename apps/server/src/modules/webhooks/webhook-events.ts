import { eq, sql } from 'drizzle-orm';
import type { WebhookEventType, WebhookObject, WebhookResourceType } from '@portal/contract';
import type { Tx } from '../../db/client';
import { invoiceRefunds, invoices, licenses, nodes, subscriptions, users } from '../../db/schema/index';
import type { AuditEvent } from '../audit/audit-events';
import { suspensionMessageOf } from '../licenses/license-rules';

/** An event to announce: its type and the resource it is about (its state is read when announced). */
export type Emission =
  | { type: WebhookEventType; resource: 'customer'; id: string }
  | { type: WebhookEventType; resource: 'subscription'; id: string }
  | {
      type: WebhookEventType;
      resource: 'invoice';
      number?: string;
      id?: string;
      /** The invoice as the event states it, where the portal holds no row of it (Stripe's). */
      held?: WebhookObject<'invoice'> | undefined;
    }
  | { type: WebhookEventType; resource: 'license'; id: string }
  | {
      type: WebhookEventType;
      resource: 'node';
      id: string;
      licenseKey: string;
      released?: { fingerprint: string; hostname: string | null };
    };

/**
 * The catalogue's events for one activity entry. Every change to a customer, subscription, invoice,
 * license or node is recorded in the activity log, in its transaction, by the one place that makes
 * it (billing's transition, license changes, activation, the account): announcing from there
 * follows every trigger without a second list of them.
 */
export function emissionsOf(event: AuditEvent): Emission[] {
  const invoicePaid = (ref: { number: string } | undefined): Emission[] =>
    ref ? [{ type: 'invoice.paid', resource: 'invoice', number: ref.number }] : [];
  switch (event.type) {
    case 'onboarded':
      return event.userId ? [{ type: 'customer.created', resource: 'customer', id: event.userId }] : [];
    case 'profile_updated':
      return [{ type: 'customer.updated', resource: 'customer', id: event.userId }];
    case 'account_deleted':
      return [{ type: 'customer.deleted', resource: 'customer', id: event.accountId }];
    case 'node_activated':
      return [{ type: 'node.activated', resource: 'node', id: event.node.id, licenseKey: event.license.key }];
    case 'node_released':
      return [
        {
          type: 'node.released',
          resource: 'node',
          id: event.node.id,
          licenseKey: event.license.key,
          released: { fingerprint: event.node.fingerprint, hostname: event.node.hostname },
        },
      ];
    case 'license_issued':
      return [{ type: 'license.issued', resource: 'license', id: event.license.id }];
    case 'license_suspended':
      return [{ type: 'license.suspended', resource: 'license', id: event.license.id }];
    case 'license_resumed':
      return [{ type: 'license.resumed', resource: 'license', id: event.license.id }];
    case 'license_extended':
      return [{ type: 'license.extended', resource: 'license', id: event.license.id }];
    case 'license_expired':
      return [{ type: 'license.expired', resource: 'license', id: event.license.id }];
    case 'license_resized':
      return [{ type: 'license.resized', resource: 'license', id: event.license.id }];
    case 'license_revoked':
      return [{ type: 'license.revoked', resource: 'license', id: event.license.id }];
    case 'subscription_created':
      return [
        { type: 'subscription.created', resource: 'subscription', id: event.subscription.providerId },
        ...invoicePaid(event.invoice),
      ];
    case 'subscription_quantity_changed':
    case 'subscription_interval_changed':
      return [
        { type: 'subscription.changed', resource: 'subscription', id: event.subscription.providerId },
        ...invoicePaid(event.invoice),
      ];
    case 'subscription_renewed':
      return [
        {
          type: event.paidOpenInvoice ? 'subscription.recovered' : 'subscription.changed',
          resource: 'subscription',
          id: event.subscription.providerId,
        },
        ...invoicePaid(event.invoice),
      ];
    case 'subscription_payment_failed':
      return [{ type: 'subscription.payment_failed', resource: 'subscription', id: event.subscription.providerId }];
    case 'subscription_cancelled':
      return [{ type: 'subscription.cancelled', resource: 'subscription', id: event.subscription.providerId }];
    case 'subscription_reactivated':
      return [{ type: 'subscription.reactivated', resource: 'subscription', id: event.subscription.providerId }];
    case 'subscription_ended':
      return [{ type: 'subscription.ended', resource: 'subscription', id: event.subscription.providerId }];
    case 'invoice_paid':
      return [{ type: 'invoice.paid', resource: 'invoice', id: event.invoice.id, held: event.invoice }];
    case 'invoice_refunded':
      return [{ type: 'invoice.refunded', resource: 'invoice', id: event.invoice.id, held: event.invoice.held }];
    case 'invoice_credited':
      return [{ type: 'invoice.credited', resource: 'invoice', id: event.invoice.id, held: event.invoice.held }];
    default:
      return [];
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The resource's full state now (inside the change's transaction), with the id its events are
 * sequenced under; undefined when it cannot be read. An invoice only the payment provider holds
 * (Stripe's) is as the event states it: the change that records it has it from the provider.
 */
export async function stateOf(
  tx: Tx,
  e: Emission,
): Promise<{ resourceId: string; object: WebhookObject<WebhookResourceType> } | undefined> {
  switch (e.resource) {
    case 'customer': {
      const [u] = await tx.select().from(users).where(eq(users.id, e.id));
      const object: WebhookObject<'customer'> = u
        ? {
            id: u.id,
            email: u.email,
            fname: u.fname,
            lname: u.lname,
            company: u.company,
            onboarded: u.onboarded,
            createdAt: iso(u.createdAt),
            deleted: false,
          }
        : { id: e.id, email: null, fname: null, lname: null, company: null, onboarded: false, createdAt: null, deleted: true };
      return { resourceId: e.id, object };
    }
    case 'subscription': {
      const [s] = await tx.select().from(subscriptions).where(eq(subscriptions.providerId, e.id));
      if (!s) return undefined;
      const object: WebhookObject<'subscription'> = {
        id: s.providerId,
        customerId: s.userId,
        status: s.status,
        plan: s.plan,
        quantity: s.quantity,
        interval: s.interval,
        unitAmount: s.unitAmount,
        currency: s.currency,
        currentPeriodStart: s.currentPeriodStart.toISOString(),
        currentPeriodEnd: s.currentPeriodEnd.toISOString(),
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        canceledAt: iso(s.canceledAt),
        endedReason: s.endedReason ?? null,
        createdAt: s.createdAt.toISOString(),
      };
      return { resourceId: s.providerId, object };
    }
    case 'invoice': {
      // Never looked up: a provider's id is no UUID, and PostgreSQL would refuse the comparison.
      if (e.held) return { resourceId: e.held.id, object: e.held };
      const where = e.id ? eq(invoices.id, e.id) : eq(invoices.number, e.number ?? '');
      const [row] = await tx
        .select({ i: invoices, providerId: subscriptions.providerId })
        .from(invoices)
        .leftJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
        .where(where);
      if (!row) return undefined;
      const [returned] = await tx
        .select({ n: sql<number>`coalesce(sum(${invoiceRefunds.amount}), 0)::int` })
        .from(invoiceRefunds)
        .where(eq(invoiceRefunds.invoiceId, row.i.id));
      const i = row.i;
      const object: WebhookObject<'invoice'> = {
        id: i.id,
        number: i.number,
        customerId: i.userId,
        subscriptionId: row.providerId,
        status: i.status,
        currency: i.currency,
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        amountReturned: returned?.n ?? 0,
        periodStart: i.periodStart.toISOString(),
        periodEnd: i.periodEnd.toISOString(),
        createdAt: i.createdAt.toISOString(),
      };
      return { resourceId: i.id, object };
    }
    case 'license': {
      const [row] = await tx
        .select({ l: licenses, providerId: subscriptions.providerId })
        .from(licenses)
        .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
        .where(eq(licenses.id, e.id));
      if (!row) return undefined;
      const l = row.l;
      const object: WebhookObject<'license'> = {
        key: l.key,
        customerId: l.userId,
        subscriptionId: row.providerId,
        status: l.status,
        maxNodes: l.maxNodes,
        activeNodes: l.activeNodes,
        expiresAt: l.expiresAt.toISOString(),
        graceUntil: iso(l.graceUntil),
        suspensionMessage: suspensionMessageOf(l, l.status),
        createdAt: l.createdAt.toISOString(),
      };
      return { resourceId: l.key, object };
    }
    case 'node': {
      const [n] = await tx.select().from(nodes).where(eq(nodes.id, e.id));
      const object: WebhookObject<'node'> = n
        ? {
            id: n.id,
            licenseKey: e.licenseKey,
            fingerprint: n.fingerprint,
            hostname: n.hostname,
            active: true,
            activatedAt: n.activatedAt.toISOString(),
          }
        : {
            id: e.id,
            licenseKey: e.licenseKey,
            fingerprint: e.released?.fingerprint ?? '',
            hostname: e.released?.hostname ?? null,
            active: false,
            activatedAt: null,
          };
      return { resourceId: e.id, object };
    }
  }
}
