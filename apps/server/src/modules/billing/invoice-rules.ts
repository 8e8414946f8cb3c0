import { getTableName, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { refundedStatus, type InvoiceStatus } from '@portal/contract';
import { sqlLiteral, sqlLiteralList } from '../../db/literals';
import { invoiceRefunds } from '../../db/schema/index';
import type { GiveBack } from './refunds';

/**
 * The invoice's rules that reports and lists read in SQL, each beside its TypeScript twin and built
 * from the same constants (docs/decisions/121-console-read-models-use-domain-rules.md).
 */

/** What was paid back to the card: refunds; credits to the balance leave the payment as it was. */
export const PAID_BACK_TO_CARD: GiveBack = 'refund';

/** An invoice's state as the customer and staff see it: refunded in part or in full, or its status. */
export const invoiceStateOf = (i: { status: string; amountPaid: number }, refundedToCard: number) =>
  refundedStatus(i.status, i.amountPaid, refundedToCard);

/** What was refunded to the card of one invoice (minor units), from its refunds and credits. */
export const refundedToCard = (givenBack: ReadonlyArray<{ kind: GiveBack; amount: number }>) =>
  givenBack.reduce((n, g) => (g.kind === PAID_BACK_TO_CARD ? n + g.amount : n), 0);

/**
 * `refundedToCard` of the invoice whose id is `invoiceId`, as an SQL integer (a subquery). The column
 * is named with its table: Drizzle writes the columns of a one-table select unqualified, which inside
 * the subquery would name the refunds' own.
 */
export function refundedToCardSql(invoiceId: AnyColumn): SQL<number> {
  const outer = sql`${sql.identifier(getTableName(invoiceId.table))}.${sql.identifier(invoiceId.name)}`;
  return sql<number>`(select coalesce(sum(r.amount), 0)::int from ${invoiceRefunds} r
    where r.invoice_id = ${outer} and r.kind = ${sqlLiteral(PAID_BACK_TO_CARD)})`;
}

/** Invoices that are not sales: a draft was never issued, a void one was withdrawn. */
export const NOT_SALES: readonly InvoiceStatus[] = ['draft', 'void'];

/** Whether an invoice of this status is a sale (the tax report counts it). */
export const isSale = (status: InvoiceStatus) => !NOT_SALES.includes(status);

/** `isSale` as an SQL condition on an invoice's status column. */
export function invoiceIsSaleSql(status: AnyColumn | SQL): SQL {
  return sql`${status} not in (${sqlLiteralList(NOT_SALES)})`;
}
