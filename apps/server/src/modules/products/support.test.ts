import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { derivePlan, supportInfoFor } from './support';

const now = new Date('2026-05-01T00:00:00Z');
const future = '2026-06-01T00:00:00.000Z';
const past = '2026-04-01T00:00:00.000Z';
const sub = (
  quantity: number,
  status: 'active' | 'past_due' | 'canceled' | 'incomplete' = 'active',
  currentPeriodEnd = future,
) => ({
  quantity,
  status,
  currentPeriodEnd,
});
const config = loadConfig({ DATA_DIR: '/tmp/unused', PREMIUM_SUPPORT_MIN_NODES: '10', SUPPORT_PHONE: '+1 555 0199' });

describe('derivePlan', () => {
  it.each([
    ['no subscription', [], 'none', 0],
    ['a cancelled one', [sub(50, 'canceled')], 'none', 0],
    ['an incomplete checkout', [sub(50, 'incomplete')], 'none', 0],
    ['one whose period has ended', [sub(50, 'active', past)], 'none', 0],
    ['an active one below the threshold', [sub(3)], 'standard', 3],
    ['one past due (grace period)', [sub(2, 'past_due')], 'standard', 2],
    ['nine nodes', [sub(4), sub(5)], 'standard', 9],
    ['ten nodes over two subscriptions', [sub(4), sub(6)], 'premium', 10],
    ['ten nodes, but one subscription ended', [sub(4), sub(6, 'active', past)], 'standard', 4],
    ['a single large one', [sub(99)], 'premium', 99],
  ] as const)('%s -> %s', (_name, subs, plan, nodes) => {
    expect(derivePlan([...subs], now, 10)).toEqual({ plan, licensedNodes: nodes });
  });

  it('follows PREMIUM_SUPPORT_MIN_NODES', () => {
    expect(derivePlan([sub(3)], now, 3).plan).toBe('premium');
    expect(derivePlan([sub(3)], now, 4).plan).toBe('standard');
  });
});

describe('supportInfoFor', () => {
  it('says clearly what a customer without a subscription gets', () => {
    const info = supportInfoFor({ subscriptions: [], now, config });
    expect(info.plan).toBe('none');
    expect(info.planName).toBe('Community support');
    expect(info.summary).toContain('best-effort');
    expect(info.channels).toEqual([{ kind: 'email', label: 'E-mail (best effort)', value: 'support@example.com' }]);
    expect(info.responseTargets).toEqual([
      {
        severity: 'Any request',
        description: 'Questions and problems of any kind',
        target: 'Best effort, no guaranteed response time',
      },
    ]);
    expect(info.links.map((l) => l.url)).toEqual([
      'https://docs.example.com',
      'https://docs.example.com/kb',
      'https://status.example.com',
    ]);
  });

  it('gives standard support e-mail and business-hour targets, no phone', () => {
    const info = supportInfoFor({ subscriptions: [sub(2)], now, config });
    expect(info).toMatchObject({
      plan: 'standard',
      planName: 'Standard support',
      licensedNodes: 2,
      premiumMinNodes: 10,
      hours: config.support.hours,
    });
    expect(info.channels.map((c) => c.kind)).toEqual(['email']);
    expect(info.responseTargets.map((r) => r.target)).toEqual([
      '4 business hours',
      '1 business day',
      '2 business days',
      '5 business days',
    ]);
    expect(info.summary).toContain('With 10 or more licensed nodes');
  });

  it('gives premium support the phone line and round-the-clock critical response', () => {
    const info = supportInfoFor({ subscriptions: [sub(12)], now, config });
    expect(info.plan).toBe('premium');
    expect(info.channels[0]).toEqual({ kind: 'phone', label: 'Phone', value: '+1 555 0199' });
    expect(info.responseTargets[0]!.target).toBe('1 hour, around the clock (24/7)');
    expect(info.hours).toContain('24/7');
  });

  it('lists the support portal when one is configured', () => {
    const withPortal = loadConfig({ DATA_DIR: '/tmp/unused', SUPPORT_PORTAL_URL: 'https://help.example.com' });
    const info = supportInfoFor({ subscriptions: [sub(1)], now, config: withPortal });
    expect(info.channels).toContainEqual({ kind: 'portal', label: 'Support portal', value: 'https://help.example.com' });
  });
});
