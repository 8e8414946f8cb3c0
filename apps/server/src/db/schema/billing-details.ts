import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A customer's billing details: who the invoices are made out to. Invoices copy them when issued
 * (a later change applies to later invoices only). The tax ID is kept in its canonical form with
 * the state of its check (VIES for EU VAT numbers: valid, invalid, or pending while VIES could not
 * be asked).
 */
export const billingDetails = pgTable(
  'billing_details',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    legalName: text('legal_name'),
    country: text('country').notNull(),
    line1: text('line1'),
    line2: text('line2'),
    postalCode: text('postal_code'),
    city: text('city'),
    region: text('region'),
    taxIdType: text('tax_id_type'),
    taxIdValue: text('tax_id_value'),
    taxIdStatus: text('tax_id_status'),
    taxIdCheckedAt: timestamp('tax_id_checked_at', { withTimezone: true }),
    /** The name VIES gave for a valid VAT number (kept as the check's evidence). */
    taxIdVerifiedName: text('tax_id_verified_name'),
    /**
     * When the details were last written to the payment provider's customer for its tax (Stripe
     * Tax, ADR 115); null when they were saved without it (Stripe Tax off, no provider customer yet,
     * or saved before it was turned on), so the provider may not know them.
     */
    taxSyncedAt: timestamp('tax_synced_at', { withTimezone: true }),
    /** Finance addresses that receive invoices and receipts too. */
    recipients: jsonb('recipients').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'billing_details_tax_id_whole',
      sql`(${t.taxIdType} is null) = (${t.taxIdValue} is null) and (${t.taxIdType} is null) = (${t.taxIdStatus} is null)`,
    ),
    check('billing_details_tax_id_status', sql`${t.taxIdStatus} in ('unchecked', 'pending', 'valid', 'invalid')`),
  ],
);
