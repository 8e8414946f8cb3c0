import { and, eq, sql } from 'drizzle-orm';
import { WEBHOOK_CATALOGUE_VERSION } from '@portal/contract';
import type { Tx } from '../../db/client';
import {
  staff,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
  webhookSequences,
} from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import type { AuditEvent } from '../audit/audit-events';
import { escapeHtml } from '../billing/billing-documents';
import { emissionsOf, stateOf } from './webhook-events';
import { generateMessageId, webhookHeaders } from './webhook-signing';
import type { WebhookServiceDeps } from './webhook-types';

/**
 * Waits after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h; ten
 * attempts over about three days (the Standard Webhooks schedule, stretched; ADR 101).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000].map((s) => s * 1000);
/** The start of an answer's body kept in the delivery log. */
const LOGGED_BODY_CHARS = 1024;

/** The ordering key of an endpoint's events about one resource: they run one at a time, in order. */
export const laneOf = (endpointId: string, resourceType: string, resourceId: string) =>
  `webhook:${endpointId}:${resourceType}:${resourceId}`;

/** Cancels an endpoint's deliveries not yet made (it was turned off). */
export async function cancelPending(tx: Tx, clock: Clock, endpointId: string) {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'cancelled', updatedAt: clock.now() })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}

/**
 * The events announced from the activity log's entries in the change's own transaction, and their
 * delivery through the outbox: signed (Standard Webhooks), retried on a schedule, in order per
 * endpoint and resource, logged per attempt; an endpoint whose delivery gives up is turned off and
 * the owners are told.
 */
export function createWebhookDelivery(
  deps: Pick<WebhookServiceDeps, 'db' | 'clock' | 'box' | 'outbox' | 'transport' | 'consoleUrl'>,
) {
  const { db, clock, box } = deps;

  // ---------- events ----------

  /** Announces what an activity entry says changed, in the caller's transaction (see webhook-events.ts). */
  async function announce(tx: Tx, event: AuditEvent): Promise<void> {
    const emissions = emissionsOf(event);
    if (emissions.length === 0) return;
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.enabled, true));
    if (endpoints.length === 0) return;
    const now = clock.now();
    for (const e of emissions) {
      const wanting = endpoints.filter((p) => p.eventTypes.length === 0 || p.eventTypes.includes(e.type));
      if (wanting.length === 0) continue;
      const state = await stateOf(tx, e);
      if (!state) continue;
      // The resource's sequence row is locked until this transaction ends: its next event waits, so
      // sequence numbers, commits and outbox rows of one resource come in the same order.
      const [seq] = await tx
        .insert(webhookSequences)
        .values({ resourceType: e.resource, resourceId: state.resourceId, sequence: 1 })
        .onConflictDoUpdate({
          target: [webhookSequences.resourceType, webhookSequences.resourceId],
          set: { sequence: sql`${webhookSequences.sequence} + 1` },
        })
        .returning({ sequence: webhookSequences.sequence });
      const id = generateMessageId();
      const payload = {
        type: e.type,
        timestamp: now.toISOString(),
        version: WEBHOOK_CATALOGUE_VERSION,
        data: { resource: e.resource, sequence: seq!.sequence, object: state.object },
      };
      await tx.insert(webhookMessages).values({
        id,
        type: e.type,
        resourceType: e.resource,
        resourceId: state.resourceId,
        sequence: seq!.sequence,
        payload,
        createdAt: now,
      });
      for (const endpoint of wanting) await queueDelivery(tx, endpoint.id, id, laneOf(endpoint.id, e.resource, state.resourceId));
    }
  }

  async function queueDelivery(tx: Tx, endpointId: string, messageId: string, lane: string): Promise<number> {
    const now = clock.now();
    const [d] = await tx
      .insert(webhookDeliveries)
      .values({ endpointId, messageId, createdAt: now, updatedAt: now })
      .returning({ id: webhookDeliveries.id });
    await deps.outbox.enqueue(tx, 'webhook', { deliveryId: d!.id }, { orderingKey: lane });
    return d!.id;
  }

  // ---------- delivery ----------

  /** One attempt of a delivery (the outbox's `webhook` job): throws when it must be tried again. */
  async function deliver(deliveryId: number): Promise<void> {
    const [row] = await db
      .select({ d: webhookDeliveries, e: webhookEndpoints, m: webhookMessages })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
      .where(eq(webhookDeliveries.id, deliveryId));
    // Gone (its endpoint deleted, or pruned) or settled: nothing left to do.
    if (!row || row.d.status !== 'pending') return;
    const { d, e, m } = row;
    if (!e.enabled) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'cancelled', updatedAt: clock.now() })
        .where(eq(webhookDeliveries.id, d.id));
      return;
    }
    const now = clock.now();
    const secrets = [box.open(e.secretSealed)];
    if (e.previousSecretSealed && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now) {
      secrets.push(box.open(e.previousSecretSealed));
    }
    const body = JSON.stringify(m.payload);
    const headers = webhookHeaders(secrets, m.id, now, body);
    const started = performance.now();
    let status: number | null = null;
    let answer: string | null = null;
    let error: string | null = null;
    try {
      const res = await deps.transport.send({ url: e.url, headers, body });
      status = res.status;
      answer = res.body.slice(0, LOGGED_BODY_CHARS);
      if (status < 200 || status > 299) error = `The endpoint answered ${status}`;
    } catch (err) {
      error = String((err as Error).message ?? err).slice(0, 500);
    }
    const ok = error === null;
    await db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({
        deliveryId: d.id,
        endpointId: e.id,
        attempt: d.attempts + 1,
        at: now,
        url: e.url,
        signedAt: Math.floor(now.getTime() / 1000),
        responseStatus: status,
        responseBody: answer,
        error,
        durationMs: Math.round(performance.now() - started),
      });
      await tx
        .update(webhookDeliveries)
        .set({ attempts: d.attempts + 1, updatedAt: clock.now(), ...(ok ? { status: 'delivered' } : {}) })
        .where(eq(webhookDeliveries.id, d.id));
    });
    if (!ok) throw new Error(error!);
  }

  /**
   * A delivery whose last attempt failed: it is failed, its endpoint turned off (its other pending
   * deliveries cancelled, a resend brings any back) and every owner told by e-mail.
   */
  async function giveUp(deliveryId: number): Promise<void> {
    await db.transaction(async (tx) => {
      const [d] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
      if (!d || d.status !== 'pending') return;
      await tx.update(webhookDeliveries).set({ status: 'failed', updatedAt: clock.now() }).where(eq(webhookDeliveries.id, d.id));
      const [e] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, d.endpointId)).for('update');
      if (!e?.enabled) return;
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: 'failing', updatedAt: clock.now() })
        .where(eq(webhookEndpoints.id, e.id));
      await cancelPending(tx, clock, e.id);
      const owners = await tx
        .select({ email: staff.email })
        .from(staff)
        .where(and(eq(staff.role, 'owner'), isNullDisabled()));
      for (const owner of owners) {
        const text = [
          `The webhook endpoint ${e.url}${e.description ? ` (${e.description})` : ''} was turned off:`,
          `its deliveries kept failing for ${WEBHOOK_RETRY_DELAYS_MS.length + 1} attempts over about three days.`,
          '',
          `Its delivery log shows the answers. Turn it back on in the console (${deps.consoleUrl}/webhooks) once it`,
          'answers again, then resend what it missed from its delivery log.',
        ].join('\n');
        await deps.outbox.enqueue(tx, 'email', {
          to: owner.email,
          subject: 'A webhook endpoint was turned off',
          text,
          html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>').replace(/\n/g, ' ')}</p>`,
        });
      }
    });
  }

  /** Registers the outbox's `webhook` job: one attempt per run, the retry schedule, giving up. */
  function register() {
    deps.outbox.on('webhook', (p) => deliver(p.deliveryId), {
      delaysMs: WEBHOOK_RETRY_DELAYS_MS,
      onGiveUp: (p) => giveUp(p.deliveryId),
    });
  }

  return { announce, queueDelivery, deliver, giveUp, register };
}
export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

const isNullDisabled = () => sql`${staff.disabledAt} is null`;
