import type { ConsoleCustomer, Overview } from '@portal/contract';

export const USER_ID = '5b0e5f9c-7d2a-4f61-9c3e-1a2b3c4d5e6f';
export const LICENSE_KEY = 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2';
export const NODE_ID = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';

/** A customer with one monthly subscription of 3 nodes, its license, 2 nodes, a card and some history. */
export function aCustomer(): ConsoleCustomer {
  return {
    profile: {
      id: USER_ID,
      email: 'ada@acme.example',
      fname: 'Ada',
      lname: 'Lovelace',
      company: 'Acme',
      picture: null,
      onboarded: true,
      linkedIdentity: null,
      createdAt: '2026-01-05T10:00:00Z',
    },
    subscriptions: [
      {
        subscriptionId: 'sub_local_1',
        provider: 'local',
        status: 'active',
        quantity: 3,
        interval: 'month',
        plan: 'Node license',
        unitAmount: 2500,
        currency: 'usd',
        currentPeriodStart: '2026-11-01T00:00:00Z',
        currentPeriodEnd: '2026-12-01T00:00:00Z',
        cancelAtPeriodEnd: false,
        endedReason: null,
        licenseKey: LICENSE_KEY,
        createdAt: '2026-01-05T10:05:00Z',
        dunning: null,
        invoices: [
          {
            id: 'in_2',
            number: 'INV-0002',
            status: 'paid',
            amountDue: 7500,
            amountPaid: 7500,
            currency: 'usd',
            created: '2026-11-01T00:00:00Z',
            periodStart: '2026-11-01T00:00:00Z',
            periodEnd: '2026-12-01T00:00:00Z',
            url: null,
          },
        ],
      },
    ],
    licenses: [
      {
        licenseKey: LICENSE_KEY,
        status: 'active',
        maxNodes: 3,
        activeNodes: 2,
        expiresAt: '2026-12-01T00:00:00Z',
        createdAt: '2026-01-05T10:05:00Z',
        subscriptionId: 'sub_local_1',
        suspensionMessage: null,
      },
    ],
    nodes: [
      {
        id: NODE_ID,
        licenseKey: LICENSE_KEY,
        fingerprint: 'fp-7c1e9a',
        hostname: 'pve-01',
        activatedAt: '2026-02-01T09:00:00Z',
        lastSeenAt: new Date().toISOString(),
      },
    ],
    cards: [{ brand: 'visa', last4: '4242', expMonth: 4, expYear: 2031, isDefault: true }],
    activity: [
      {
        id: 'a1',
        action: 'license.activate',
        summary: 'Node pve-01 activated',
        byStaff: false,
        createdAt: '2026-02-01T09:00:00Z',
      },
    ],
    signIns: [
      {
        method: 'link',
        createdAt: '2026-11-20T08:00:00Z',
        lastSeenAt: '2026-11-20T09:00:00Z',
        expiresAt: '2026-12-20T08:00:00Z',
        active: true,
      },
    ],
    staffActions: [],
    billingDetails: {
      legalName: 'Acme GmbH',
      country: 'DE',
      line1: 'Hauptstr. 1',
      line2: null,
      postalCode: '10115',
      city: 'Berlin',
      region: null,
      taxId: { type: 'eu_vat', value: 'DE123456789', status: 'valid', checkedAt: '2026-01-05T10:00:00Z' },
      recipients: ['books@acme.example'],
      updatedAt: '2026-01-05T10:00:00Z',
    },
  };
}

/** An overview of a small business: 12 months of growing MRR. */
export function anOverview(): Overview {
  return {
    currency: 'usd',
    mrr: 1_234_500,
    arr: 14_814_000,
    activeSubscriptions: 321,
    pastDueSubscriptions: 2,
    activeNodes: 987,
    activeLicenses: 330,
    customers: 400,
    newSubscriptions: 12,
    churnedSubscriptions: 3,
    failedPayments: 0,
    mrrAtRisk: 7_500,
    subscriptionsAtRisk: 2,
    cardsExpiringBeforeRenewal: 4,
    months: Array.from({ length: 12 }, (_, i) => ({
      month: `2026-${String(i + 1).padStart(2, '0')}`,
      mrr: 1_000_000 + i * 20_000,
      revenue: 900_000 + i * 25_000,
      newSubscriptions: 10 + i,
      churnedSubscriptions: 2,
    })),
    days: Array.from({ length: 30 }, (_, i) => ({
      day: `2026-11-${String(i + 1).padStart(2, '0')}`,
      validations: 40_000 + i * 100,
      valid: 39_000 + i * 100,
    })),
  };
}
