import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { creditNotes, documentCounters, invoiceRefunds, invoices, paymentMethods, setupIntents } from '../../../db/schema/index';

export type CardRow = typeof paymentMethods.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** INV-999 sorts before INV-1000: compare by length first. */
const byNumberDesc = [desc(sql`length(${invoices.number})`), desc(invoices.number)];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type GivenBack = { refunded: number; credited: number };

/**
 * The next number of a document series, in the caller's transaction: the counter row stays locked
 * until it ends, so concurrent invoices take turns and a rolled-back one gives its number back.
 */
export async function nextNumber(tx: Tx, series: 'INV' | 'CN'): Promise<number> {
  const [row] = await tx
    .update(documentCounters)
    .set({ lastValue: sql`${documentCounters.lastValue} + 1` })
    .where(eq(documentCounters.series, series))
    .returning({ value: documentCounters.lastValue });
  if (!row) throw new Error(`no document counter ${series}`);
  return row.value;
}

async function repoRefunded(tx: Tx, ids: string[]): Promise<Map<string, GivenBack>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: invoiceRefunds.invoiceId,
      refunded: sql<number>`coalesce(sum(${invoiceRefunds.amount}) filter (where ${invoiceRefunds.kind} = 'refund'), 0)::int`,
      credited: sql<number>`coalesce(sum(${invoiceRefunds.amount}) filter (where ${invoiceRefunds.kind} = 'credit'), 0)::int`,
    })
    .from(invoiceRefunds)
    .where(inArray(invoiceRefunds.invoiceId, ids))
    .groupBy(invoiceRefunds.invoiceId);
  return new Map(rows.map((r) => [r.id, { refunded: Number(r.refunded), credited: Number(r.credited) }]));
}

/** The local engine's own tables: cards, setup intents and invoices. Every function joins the caller's transaction. */
export const localRepository = {
  // cards
  async listCards(tx: Tx, customerId: string): Promise<CardRow[]> {
    return tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
      .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
  },
  async findCard(tx: Tx, customerId: string, id: string): Promise<CardRow | undefined> {
    const [row] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
      .limit(1);
    return row;
  },
  /** A card that is still attached, by its globally unique id (the card a subscription charges). */
  async findCardById(tx: Tx, id: string): Promise<CardRow | undefined> {
    const [row] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, id), isNull(paymentMethods.detachedAt)))
      .limit(1);
    return row;
  },
  async insertCard(tx: Tx, row: typeof paymentMethods.$inferInsert) {
    await tx.insert(paymentMethods).values(row);
  },
  async setDefaultCard(tx: Tx, customerId: string, id: string) {
    await tx
      .update(paymentMethods)
      .set({ isDefault: sql`${paymentMethods.id} = ${id}` })
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)));
  },
  async detachCard(tx: Tx, customerId: string, id: string, at: Date) {
    await tx
      .update(paymentMethods)
      .set({ detachedAt: at, isDefault: false })
      .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId)));
  },
  async detachAllCards(tx: Tx, customerId: string, at: Date) {
    await tx
      .update(paymentMethods)
      .set({ detachedAt: at, isDefault: false })
      .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)));
  },

  // setup intents
  async insertSetupIntent(tx: Tx, row: typeof setupIntents.$inferInsert) {
    await tx.insert(setupIntents).values(row);
  },
  async lockSetupIntent(tx: Tx, customerId: string, clientSecretHash: string) {
    const [row] = await tx
      .select()
      .from(setupIntents)
      .where(and(eq(setupIntents.clientSecretHash, clientSecretHash), eq(setupIntents.customerId, customerId)))
      .for('update');
    return row;
  },
  async completeSetupIntent(tx: Tx, id: string, paymentMethodId: string) {
    await tx.update(setupIntents).set({ status: 'succeeded', paymentMethodId }).where(eq(setupIntents.id, id));
  },

  // invoices
  /** Writes an invoice with the next number of its series (gap-free: see documentCounters). */
  async insertInvoice(tx: Tx, row: Omit<typeof invoices.$inferInsert, 'number'>): Promise<InvoiceRow> {
    const number = `INV-${await nextNumber(tx, 'INV')}`;
    const [created] = await tx
      .insert(invoices)
      .values({ ...row, number })
      .returning();
    return created!;
  },
  async updateInvoice(tx: Tx, id: string, patch: Partial<typeof invoices.$inferInsert>): Promise<InvoiceRow> {
    const [row] = await tx.update(invoices).set(patch).where(eq(invoices.id, id)).returning();
    return row!;
  },
  async listInvoices(tx: Tx, subscriptionId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(eq(invoices.subscriptionId, subscriptionId))
      .orderBy(desc(invoices.createdAt), ...byNumberDesc);
  },
  async listInvoicesForUser(tx: Tx, userId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(desc(invoices.createdAt), ...byNumberDesc);
  },
  async openInvoices(tx: Tx, subscriptionId: string): Promise<InvoiceRow[]> {
    return tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, 'open')))
      .orderBy(asc(invoices.createdAt));
  },
  async findInvoiceForUser(tx: Tx, userId: string, id: string): Promise<InvoiceRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.userId, userId)))
      .limit(1);
    return row;
  },
  /** An invoice by id, locked until the transaction ends, with what was given back on it so far. */
  async lockInvoiceWithRefunds(tx: Tx, id: string): Promise<{ invoice: InvoiceRow; given: GivenBack } | undefined> {
    if (!UUID.test(id)) return undefined;
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!invoice) return undefined;
    return { invoice, given: (await repoRefunded(tx, [id])).get(id) ?? { refunded: 0, credited: 0 } };
  },
  /** What was refunded and credited on each of `ids` (absent: nothing). */
  refundedTotals: (tx: Tx, ids: string[]) => repoRefunded(tx, ids),
  async insertRefund(tx: Tx, row: typeof invoiceRefunds.$inferInsert) {
    await tx.insert(invoiceRefunds).values(row);
  },
  async findInvoiceById(tx: Tx, id: string): Promise<InvoiceRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
    return row;
  },
  /** Writes a credit note with the next number of its own series (CN-…). */
  async insertCreditNote(tx: Tx, row: Omit<typeof creditNotes.$inferInsert, 'number'>): Promise<CreditNoteRow> {
    const number = `CN-${await nextNumber(tx, 'CN')}`;
    const [created] = await tx
      .insert(creditNotes)
      .values({ ...row, number })
      .returning();
    return created!;
  },
  /** The credit notes of `invoiceIds`, oldest first. */
  async creditNotesOf(tx: Tx, invoiceIds: string[]): Promise<CreditNoteRow[]> {
    if (invoiceIds.length === 0) return [];
    return tx
      .select()
      .from(creditNotes)
      .where(inArray(creditNotes.invoiceId, invoiceIds))
      .orderBy(asc(creditNotes.createdAt), asc(creditNotes.number));
  },
  async findCreditNoteForUser(tx: Tx, userId: string, id: string): Promise<CreditNoteRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await tx
      .select()
      .from(creditNotes)
      .where(and(eq(creditNotes.id, id), eq(creditNotes.userId, userId)))
      .limit(1);
    return row;
  },
  /** Invoices are kept for the vendor's books; the customer's name and address on them are replaced. */
  async anonymiseInvoices(tx: Tx, userId: string, replacement: string) {
    await tx
      .update(invoices)
      .set({ userId: null, customerName: replacement, customerEmail: null })
      .where(eq(invoices.userId, userId));
    await tx.update(creditNotes).set({ userId: null }).where(eq(creditNotes.userId, userId));
  },
  /**
   * Account credit available to the customer: over their invoices, what was due minus what the
   * lines added up to, plus what staff credited on them. A credit invoice (lines < 0, nothing due)
   * adds, credit used on a later invoice (due < lines) takes away.
   */
  async creditBalance(tx: Tx, userId: string): Promise<number> {
    const [row] = await tx
      .select({
        balance: sql<number>`coalesce(sum(${invoices.amountDue} - ${invoices.taxAmount} - (select coalesce(sum((l->>'amount')::bigint), 0) from jsonb_array_elements(${invoices.lines}) l)), 0)::int`,
      })
      .from(invoices)
      .where(and(eq(invoices.userId, userId), sql`${invoices.status} <> 'void'`));
    const [credits] = await tx
      .select({ total: sql<number>`coalesce(sum(${invoiceRefunds.amount}), 0)::int` })
      .from(invoiceRefunds)
      .innerJoin(invoices, eq(invoices.id, invoiceRefunds.invoiceId))
      .where(and(eq(invoices.userId, userId), eq(invoiceRefunds.kind, 'credit')));
    return Math.max(0, Number(row?.balance ?? 0) + Number(credits?.total ?? 0));
  },
  /** Start of the subscription's billing schedule: its first period, or the last interval switch. */
  async billingAnchor(tx: Tx, subscriptionId: string): Promise<Date | undefined> {
    const [row] = await tx
      .select({ periodStart: invoices.periodStart })
      .from(invoices)
      .where(
        and(
          eq(invoices.subscriptionId, subscriptionId),
          inArray(invoices.reason, ['subscription_create', 'subscription_interval_change']),
        ),
      )
      .orderBy(desc(invoices.createdAt), ...byNumberDesc)
      .limit(1);
    return row?.periodStart;
  },
};
