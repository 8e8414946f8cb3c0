import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { billingDetails } from '../../db/schema/index';

export type BillingDetailsRow = typeof billingDetails.$inferSelect;

/** The customer's billing details: one row per user. */
export const billingDetailsRepository = {
  async find(tx: Tx, userId: string): Promise<BillingDetailsRow | undefined> {
    const [row] = await tx.select().from(billingDetails).where(eq(billingDetails.userId, userId)).limit(1);
    return row;
  },
  async lock(tx: Tx, userId: string): Promise<BillingDetailsRow | undefined> {
    const [row] = await tx.select().from(billingDetails).where(eq(billingDetails.userId, userId)).for('update');
    return row;
  },
  async upsert(tx: Tx, row: typeof billingDetails.$inferInsert): Promise<BillingDetailsRow> {
    const { userId, createdAt: _c, ...rest } = row;
    const [saved] = await tx
      .insert(billingDetails)
      .values(row)
      .onConflictDoUpdate({ target: billingDetails.userId, set: rest })
      .returning();
    void userId;
    return saved!;
  },
  /** The details were written to the provider's customer for its tax at `at`. */
  async markTaxSynced(tx: Tx, userId: string, at: Date) {
    await tx.update(billingDetails).set({ taxSyncedAt: at }).where(eq(billingDetails.userId, userId));
  },
  async setTaxIdStatus(
    tx: Tx,
    userId: string,
    patch: Pick<BillingDetailsRow, 'taxIdStatus' | 'taxIdCheckedAt' | 'taxIdVerifiedName'>,
  ) {
    await tx.update(billingDetails).set(patch).where(eq(billingDetails.userId, userId));
  },
};
