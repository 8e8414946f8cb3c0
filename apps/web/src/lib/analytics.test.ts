import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FREE_MAIL_DOMAINS } from '@portal/contract';
import { createNoopSink, identifyUser, setAnalyticsSink, track } from './analytics';

const person = { fname: 'Ada', lname: 'Lovelace', onboarded: true };

describe('analytics', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    setAnalyticsSink(createNoopSink());
  });
  afterEach(() => {
    setAnalyticsSink(null);
    vi.restoreAllMocks();
  });

  it('identifies by e-mail with email, fname, lname and onboarded, and groups a company domain', () => {
    identifyUser({ email: 'ada@acme.example', ...person });
    expect(window.__analytics).toEqual([
      {
        type: 'identify',
        distinctId: 'ada@acme.example',
        properties: { email: 'ada@acme.example', fname: 'Ada', lname: 'Lovelace', onboarded: true },
      },
      { type: 'group', groupType: 'company', groupKey: 'acme.example' },
    ]);
  });

  it.each(FREE_MAIL_DOMAINS)('does not group users of the free-mail provider %s', (domain) => {
    identifyUser({ email: `ada@${domain}`, ...person });
    expect(window.__analytics?.map((c) => c.type)).toEqual(['identify']);
  });

  it('records events with their properties and logs them', () => {
    track('subscription_change_cancelled', { stripe_subscription_id: 'sub_1' });
    expect(window.__analytics).toEqual([
      { type: 'capture', event: 'subscription_change_cancelled', properties: { stripe_subscription_id: 'sub_1' } },
    ]);
    expect(console.debug).toHaveBeenCalled();
  });
});
