import { describe, expect, it } from 'vitest';
import { SUSPENSION_MESSAGE_MAX_LENGTH, SuspendLicenseBodySchema } from './console-actions';
import { ActivateResponseSchema, LicenseSchema, LicenseSummarySchema } from './licenses';
import { WebhookLicenseSchema } from './webhooks';

describe('the suspend body', () => {
  it('takes a reason alone, or with a message to the customer (trimmed)', () => {
    expect(SuspendLicenseBodySchema.parse({ reason: 'Chargeback' })).toEqual({ reason: 'Chargeback' });
    expect(SuspendLicenseBodySchema.parse({ reason: 'Chargeback', customerMessage: '  Write to us.  ' })).toEqual({
      reason: 'Chargeback',
      customerMessage: 'Write to us.',
    });
    const longest = 'x'.repeat(SUSPENSION_MESSAGE_MAX_LENGTH);
    expect(SuspendLicenseBodySchema.safeParse({ reason: 'r', customerMessage: longest }).success).toBe(true);
    // Scripts that shape with joiners stay allowed, as in names.
    expect(SuspendLicenseBodySchema.safeParse({ reason: 'r', customerMessage: 'می‌خواهم' }).success).toBe(true);
  });

  it('refuses a message too long, with control, direction or zero-width characters, or not text, and unknown fields', () => {
    const bad: unknown[] = [
      'x'.repeat(SUSPENSION_MESSAGE_MAX_LENGTH + 1),
      'bell\u0007',
      'two\nlines',
      'evil\u202etxt.exe',
      'zero\u200bwidth',
      'NUL\u0000',
      'lone \ud800 surrogate',
      7,
      null,
    ];
    for (const customerMessage of bad) {
      expect(SuspendLicenseBodySchema.safeParse({ reason: 'r', customerMessage }).success, JSON.stringify(customerMessage)).toBe(
        false,
      );
    }
    expect(SuspendLicenseBodySchema.safeParse({ reason: 'r', message: 'hi' }).success).toBe(false);
    expect(SuspendLicenseBodySchema.safeParse({ customerMessage: 'hi' }).success).toBe(false);
  });
});

describe('the message in answers', () => {
  const license = {
    licenseKey: 'K',
    status: 'suspended',
    maxNodes: 1,
    activeNodes: 0,
    expiresAt: '2026-12-01T00:00:00Z',
    createdAt: '2026-01-01T00:00:00Z',
    stripeId: null,
  };
  it("is part of the owner's license (null without one) and of the dashboard's figures", () => {
    expect(LicenseSchema.parse({ ...license, suspensionMessage: 'Write to us.' }).suspensionMessage).toBe('Write to us.');
    expect(LicenseSchema.parse({ ...license, suspensionMessage: null }).suspensionMessage).toBeNull();
    expect(LicenseSchema.safeParse(license).success).toBe(false);
    const summary = { licenses: 1, activeNodes: 0, maxNodes: 0, atLimit: [], expiringSoon: [], suspended: ['K'] };
    expect(LicenseSummarySchema.parse({ ...summary, suspensionMessages: { K: 'Write to us.' } }).suspensionMessages).toEqual({
      K: 'Write to us.',
    });
  });

  it("is left out of the key holder's activation answer, and is in the license webhook", () => {
    const { stripeId: _s, ...view } = license;
    const parsed = ActivateResponseSchema.parse({
      node: { id: 'n', fingerprint: 'f', hostname: null, activatedAt: 'a', lastSeenAt: 'b' },
      license: { ...view, suspensionMessage: 'Write to us.' },
    });
    expect(parsed.license).not.toHaveProperty('suspensionMessage');
    expect(Object.keys(WebhookLicenseSchema.shape)).toContain('suspensionMessage');
  });
});
