import type { ConsoleCustomer } from '@portal/contract';

/** Monthly value of one subscription in cents: yearly ones divided by 12 (the overview's MRR rule). */
export function monthlyValue(s: { unitAmount: number; quantity: number; interval: 'month' | 'year' }): number {
  const perPeriod = s.unitAmount * s.quantity;
  return s.interval === 'year' ? Math.round(perPeriod / 12) : perPeriod;
}

/** Subscriptions that bring revenue now: active, or past due while the payment is retried. */
const paying = (s: ConsoleCustomer['subscriptions'][number]) => s.status === 'active' || s.status === 'past_due';

export interface CustomerFigures {
  activeSubscriptions: number;
  mrr: number;
  /** Everything the customer has paid, over every invoice. */
  paid: number;
  currency: string;
  licenses: number;
  activeLicenses: number;
  /** Every node of the customer's licenses (the page lists only the newest of a large customer's). */
  nodes: number;
  allowedNodes: number;
}

/** The customer page's summary row, from the page's own data. */
export function customerFigures(c: ConsoleCustomer): CustomerFigures {
  const live = c.subscriptions.filter(paying);
  const invoices = c.subscriptions.flatMap((s) => s.invoices);
  return {
    activeSubscriptions: live.length,
    mrr: live.reduce((sum, s) => sum + monthlyValue(s), 0),
    paid: invoices.reduce((sum, i) => sum + i.amountPaid, 0),
    currency: c.subscriptions[0]?.currency ?? invoices[0]?.currency ?? 'usd',
    licenses: c.licenses.length,
    activeLicenses: c.licenses.filter((l) => l.status === 'active').length,
    nodes: c.licenses.reduce((sum, l) => sum + l.activeNodes, 0),
    allowedNodes: c.licenses.filter((l) => l.status === 'active').reduce((sum, l) => sum + l.maxNodes, 0),
  };
}
