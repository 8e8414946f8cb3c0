import { describe, expect, it } from 'vitest';
import type { LicenseSummary, PaymentMethod, Subscription } from '@portal/contract';
import { cardEndsAt, dashboardWarnings, nextSteps, renewalAmount } from './dashboard-logic';

const now = new Date('2030-03-10T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString();

const sub = (over: Partial<Subscription> = {}): Subscription => ({
  stripeId: 'sub_1',
  status: 'active',
  quantity: 3,
  interval: 'month',
  currentPeriodStart: inDays(-10),
  currentPeriodEnd: inDays(20),
  cancelAtPeriodEnd: false,
  endedReason: null,
  plan: 'PCE',
  unitAmount: 3000,
  currency: 'usd',
  licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
  paymentFailing: null,
  ...over,
});
const card = (over: Partial<PaymentMethod> = {}): PaymentMethod => ({
  id: 'pm_1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2031,
  isDefault: true,
  ...over,
});
const summary = (over: Partial<LicenseSummary> = {}): LicenseSummary => ({
  licenses: 1,
  activeNodes: 1,
  maxNodes: 3,
  atLimit: [],
  expiringSoon: [],
  suspended: [],
  suspensionMessages: {},
  ...over,
});

const ids = (w: ReturnType<typeof dashboardWarnings>) => w.map((x) => x.id);

describe('dashboardWarnings', () => {
  it('has nothing to say about a healthy account, nor a new one', () => {
    expect(dashboardWarnings({ subscriptions: [sub()], methods: [card()], summary: summary(), now })).toEqual([]);
    expect(
      dashboardWarnings({ subscriptions: [], methods: [], summary: summary({ licenses: 0, maxNodes: 0, activeNodes: 0 }), now }),
    ).toEqual([]);
  });

  it('warns about a card that expires before the next renewal', () => {
    const w = dashboardWarnings({
      subscriptions: [sub({ currentPeriodEnd: inDays(30) })],
      methods: [card({ expMonth: 3, expYear: 2030 })],
      summary: summary(),
      now,
    });
    expect(ids(w)).toEqual(['card-expires']);
    expect(w[0]!.message).toMatch(/^Visa ending in 4242 expires at the end of 03\/2030; your subscription renews on/);
    expect(w[0]!.action.to).toBe('/app/billing');
  });

  it('does not warn about a card that lasts until after the renewal, and uses the default card', () => {
    const methods = [card({ id: 'old', isDefault: false, expMonth: 1, expYear: 2030 }), card({ id: 'new', isDefault: true })];
    expect(dashboardWarnings({ subscriptions: [sub()], methods, summary: summary(), now })).toEqual([]);
  });

  it('warns when a renewing subscription has no card to charge', () => {
    expect(ids(dashboardWarnings({ subscriptions: [sub()], methods: [], summary: summary(), now }))).toEqual(['no-card']);
  });

  it('says nothing about cards while they are unknown, nor for a cancelled subscription', () => {
    expect(dashboardWarnings({ subscriptions: [sub()], methods: undefined, summary: summary(), now })).toEqual([]);
    expect(
      dashboardWarnings({
        subscriptions: [sub({ cancelAtPeriodEnd: true, currentPeriodEnd: inDays(60) })],
        methods: [],
        summary: summary(),
        now,
      }),
    ).toEqual([]);
  });

  it('points to the license at its node limit', () => {
    const w = dashboardWarnings({
      subscriptions: [sub()],
      methods: [card()],
      summary: summary({ atLimit: ['KEY11-KEY22-KEY33-KEY44-KEY55'] }),
      now,
    });
    expect(ids(w)).toEqual(['at-limit']);
    expect(w[0]!.action.to).toBe('/app/licenses?highlight=KEY11-KEY22-KEY33-KEY44-KEY55');
    const many = dashboardWarnings({ subscriptions: [], methods: [], summary: summary({ atLimit: ['A', 'B'] }), now });
    expect(many[0]!.title).toBe('2 licenses are at their node limit');
  });

  it('announces a renewal within 7 days with its amount, not one further away', () => {
    const w = dashboardWarnings({
      subscriptions: [sub({ currentPeriodEnd: inDays(3) })],
      methods: [card()],
      summary: summary(),
      now,
    });
    expect(ids(w)).toEqual(['renewal-sub_1']);
    expect(w[0]!.level).toBe('info');
    expect(w[0]!.title).toBe('Your subscription renews in 3 days');
    expect(w[0]!.message).toMatch(/\$90\.00 will be charged for 3 nodes, monthly, to your Visa ending in 4242\.$/);
    expect(
      dashboardWarnings({ subscriptions: [sub({ currentPeriodEnd: inDays(8) })], methods: [card()], summary: summary(), now }),
    ).toEqual([]);
  });

  it('warns that a cancelled subscription is about to end', () => {
    const w = dashboardWarnings({
      subscriptions: [sub({ cancelAtPeriodEnd: true, currentPeriodEnd: inDays(5) })],
      methods: [card()],
      summary: summary({ expiringSoon: [{ key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', expiresAt: inDays(5) }] }),
      now,
    });
    // The license of that subscription is not announced a second time.
    expect(ids(w)).toEqual(['ending-sub_1']);
    expect(w[0]!.title).toBe('Your subscription ends in 5 days');
    expect(w[0]!.action.label).toBe('Re-activate');
  });

  it('leaves a failing payment to the banner above every page: no second alert for it here', () => {
    const w = dashboardWarnings({
      subscriptions: [sub({ status: 'past_due', currentPeriodEnd: inDays(2) })],
      methods: [card()],
      summary: summary(),
      now,
    });
    expect(w.filter((x) => x.level === 'red')).toEqual([]);
    expect(ids(w).some((id) => id.startsWith('past-due'))).toBe(false);
  });

  it('warns about a license without a subscription that expires soon', () => {
    const w = dashboardWarnings({
      subscriptions: [],
      methods: [],
      summary: summary({ expiringSoon: [{ key: 'VEND1-VEND2-VEND3-VEND4-VEND5', expiresAt: inDays(4) }] }),
      now,
    });
    expect(ids(w)).toEqual(['license-expiring-VEND1-VEND2-VEND3-VEND4-VEND5']);
  });

  it('ignores subscriptions that have ended', () => {
    const ended = sub({ status: 'canceled', currentPeriodEnd: inDays(-3) });
    expect(dashboardWarnings({ subscriptions: [ended], methods: [], summary: summary(), now })).toEqual([]);
  });
});

describe('a suspended license', () => {
  it('comes first, in red, and leads to support', () => {
    const warnings = dashboardWarnings({
      subscriptions: [sub()],
      methods: [],
      summary: summary({ maxNodes: 0, activeNodes: 0, suspended: ['SUSPX-AAAAA-BBBBB-CCCCC-DDDDD'] }),
      now,
    });
    expect(warnings[0]).toMatchObject({
      id: 'suspended',
      level: 'red',
      title: 'A license is suspended',
      action: { label: 'Contact support', to: '/app/support' },
    });
    expect(warnings[0]!.message).toContain('License SUSPX-AAAAA-BBBBB-CCCCC-DDDDD was suspended by the vendor');
  });
  it('counts several', () => {
    const [first] = dashboardWarnings({
      subscriptions: [],
      methods: [],
      summary: summary({ suspended: ['A', 'B'] }),
      now,
    });
    expect(first).toMatchObject({ id: 'suspended', title: '2 licenses are suspended' });
  });
  it("quotes the vendor's message to the customer when staff left one, and nothing otherwise", () => {
    const key = 'SUSPX-AAAAA-BBBBB-CCCCC-DDDDD';
    const one = (suspensionMessages: Record<string, string>) =>
      dashboardWarnings({ subscriptions: [], methods: [], summary: summary({ suspended: [key], suspensionMessages }), now })[0]!;
    expect(one({ [key]: 'Write to billing@vendor.example' }).quotes).toEqual([
      { label: 'Message from the vendor', text: 'Write to billing@vendor.example' },
    ]);
    expect(one({}).quotes).toBeUndefined();
    const [several] = dashboardWarnings({
      subscriptions: [],
      methods: [],
      summary: summary({ suspended: ['A', 'B'], suspensionMessages: { B: 'Abuse report from your network' } }),
      now,
    });
    expect(several!.quotes).toEqual([{ label: 'Message from the vendor about B', text: 'Abuse report from your network' }]);
  });
});

describe('nextSteps', () => {
  it('starts a new customer at buying a subscription', () => {
    expect(nextSteps({ subscriptions: [], summary: summary({ licenses: 0, maxNodes: 0, activeNodes: 0 }), now })).toEqual([
      { id: 'subscribe', done: false },
      { id: 'download', done: false },
      { id: 'activate', done: false },
    ]);
  });

  it('marks the subscription done once bought, and disappears once a node is active', () => {
    expect(nextSteps({ subscriptions: [sub()], summary: summary({ activeNodes: 0 }), now })?.[0]).toEqual({
      id: 'subscribe',
      done: true,
    });
    expect(nextSteps({ subscriptions: [sub()], summary: summary({ activeNodes: 1 }), now })).toBeNull();
  });

  it('gives way to the suspension warning: a customer whose license staff suspended needs support, not a first step', () => {
    expect(
      nextSteps({
        subscriptions: [sub()],
        summary: summary({ activeNodes: 0, maxNodes: 0, suspended: ['SUSPX-AAAAA-BBBBB-CCCCC-DDDDD'] }),
        now,
      }),
    ).toBeNull();
  });

  it('waits for the figures', () => {
    expect(nextSteps({ subscriptions: undefined, summary: summary(), now })).toBeNull();
    expect(nextSteps({ subscriptions: [], summary: undefined, now })).toBeNull();
  });
});

describe('helpers', () => {
  it('computes the renewal amount and the end of a card', () => {
    expect(renewalAmount({ unitAmount: 2500, quantity: 4 })).toBe(10_000);
    expect(cardEndsAt({ expMonth: 12, expYear: 2030 })).toEqual(new Date(2031, 0, 1));
  });
});
