import {
  checkTaxId,
  compactTaxId,
  type BillingDetails,
  type TaxIdStatus,
  type TaxIdType,
  type UpdateBillingDetailsBody,
} from '@portal/contract';
import type { z } from 'zod';
import type { UpdateBillingDetailsBodySchema } from '@portal/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ViesResult } from '../../providers/vies/vies';
import type { BillingContext, BillingUser } from './billing-context';
import { billingDetailsRepository as repo, type BillingDetailsRow } from './billing-details.repository';
import type { ProviderTaxSync } from './provider-tax';

export type BillingDetailsInput = z.output<typeof UpdateBillingDetailsBodySchema>;
export type { UpdateBillingDetailsBody };

export function toBillingDetails(row: BillingDetailsRow): BillingDetails {
  return {
    legalName: row.legalName,
    country: row.country,
    line1: row.line1,
    line2: row.line2,
    postalCode: row.postalCode,
    city: row.city,
    region: row.region,
    taxId:
      row.taxIdType && row.taxIdValue && row.taxIdStatus
        ? {
            type: row.taxIdType as TaxIdType,
            value: row.taxIdValue,
            status: row.taxIdStatus as TaxIdStatus,
            checkedAt: row.taxIdCheckedAt?.toISOString() ?? null,
          }
        : null,
    recipients: row.recipients,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const statusOf = (r: ViesResult): TaxIdStatus => (r.outcome === 'unavailable' ? 'pending' : r.outcome);

/**
 * The customer's billing details (who invoices are made out to). An EU VAT number is checked with
 * VIES when it is saved; VIES being down never refuses the details: the number is saved 'pending'
 * and an outbox job asks again with the outbox's backoff. An invalid number is saved as such and
 * shown to the customer (tax is charged as for a consumer until a valid number is given).
 */
export function createBillingDetails(ctx: BillingContext, providerTax: Pick<ProviderTaxSync, 'detailsSaved'>) {
  const { db, clock, outbox, log, vat } = ctx;

  async function ask(value: string): Promise<ViesResult> {
    const prefix = value.slice(0, 2);
    return vat.check(prefix, value.slice(2));
  }

  outbox.on('vies_check', async ({ userId, value }) => {
    const current = await repo.find(db, userId);
    // Changed or removed since, or already answered: nothing to do.
    if (!current || current.taxIdValue !== value || current.taxIdStatus !== 'pending') return;
    const result = await ask(value);
    if (result.outcome === 'unavailable') throw new Error(`VIES unavailable: ${result.reason}`);
    await db.transaction(async (tx) => {
      const row = await repo.lock(tx, userId);
      if (!row || row.taxIdValue !== value || row.taxIdStatus !== 'pending') return;
      await repo.setTaxIdStatus(tx, userId, {
        taxIdStatus: statusOf(result),
        taxIdCheckedAt: clock.now(),
        taxIdVerifiedName: result.outcome === 'valid' ? result.name : null,
      });
    });
  });

  return {
    async getBillingDetails(userId: string): Promise<BillingDetails | null> {
      const row = await repo.find(db, userId);
      return row ? toBillingDetails(row) : null;
    },

    /** The details as stored, for the invoice's snapshot (in the caller's transaction). */
    findDetails: (tx: Tx, userId: string) => repo.find(tx, userId),

    /**
     * Replaces the details (the customer's form, or staff in the console: `by.actor` names them in
     * the activity log and `by.then` writes their audit row in the same transaction).
     */
    async updateBillingDetails(
      user: BillingUser,
      body: BillingDetailsInput,
      by: { actor?: string; then?: (tx: Tx, saved: BillingDetails) => Promise<void> } = {},
    ): Promise<BillingDetails> {
      let taxId: { type: TaxIdType; value: string } | null = null;
      if (body.taxId) {
        const checked = checkTaxId(body.taxId.type, body.taxId.value, body.country);
        // The contract's schema has checked it already; this keeps the service safe on its own.
        if ('message' in checked) throw new AppError('BAD_REQUEST', checked.message);
        taxId = { type: body.taxId.type, value: checked.value };
      }
      const before = await repo.find(db, user.id);
      const unchanged = taxId && before?.taxIdType === taxId.type && before.taxIdValue === taxId.value;
      let status: TaxIdStatus | null = null;
      let checkedAt: Date | null = null;
      let verifiedName: string | null = null;
      if (taxId && unchanged && before) {
        status = before.taxIdStatus as TaxIdStatus;
        checkedAt = before.taxIdCheckedAt;
        verifiedName = before.taxIdVerifiedName;
      } else if (taxId?.type === 'eu_vat') {
        // Asked before the transaction: no row stays locked while VIES answers.
        const result = await ask(compactTaxId(taxId.value));
        if (result.outcome === 'unavailable')
          log.warn({ reason: result.reason }, 'VIES unavailable: VAT number saved as pending');
        status = statusOf(result);
        checkedAt = result.outcome === 'unavailable' ? null : clock.now();
        verifiedName = result.outcome === 'valid' ? result.name : null;
      } else if (taxId) {
        status = 'unchecked';
      }
      const now = clock.now();
      const saved = await db.transaction(async (tx) => {
        const row = await repo.upsert(tx, {
          userId: user.id,
          legalName: body.legalName,
          country: body.country,
          line1: body.line1,
          line2: body.line2,
          postalCode: body.postalCode,
          city: body.city,
          region: body.region,
          taxIdType: taxId?.type ?? null,
          taxIdValue: taxId?.value ?? null,
          taxIdStatus: status,
          taxIdCheckedAt: checkedAt,
          taxIdVerifiedName: verifiedName,
          recipients: body.recipients,
          // Written to the provider again below, where Stripe Tax is on and the customer exists.
          taxSyncedAt: null,
          createdAt: now,
          updatedAt: now,
        });
        // Stripe Tax: the Stripe customer gets the details (a refusal rolls the save back).
        await providerTax.detailsSaved(tx, { id: user.id, name: `${user.fname} ${user.lname}`.trim() }, row);
        if (status === 'pending' && taxId && !(unchanged && before?.taxIdStatus === 'pending')) {
          await outbox.enqueue(tx, 'vies_check', { userId: user.id, value: taxId.value });
        }
        await ctx.audit.record(tx, {
          type: 'billing_details_updated',
          userId: user.id,
          actor: by.actor ?? user.email,
          country: body.country,
          taxId: taxId && status ? { value: taxId.value, status } : null,
        });
        const details = toBillingDetails(row);
        await by.then?.(tx, details);
        return details;
      });
      return saved;
    },
  };
}
export type BillingDetailsService = ReturnType<typeof createBillingDetails>;
