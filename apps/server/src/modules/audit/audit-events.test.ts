import { describe, expect, it } from 'vitest';
import { STAFF_ACTOR, toAuditEntry, type AuditEvent } from './audit-events';

const who = { userId: 'u1', actor: 'ada@example.com' };
const sub = { providerId: 'sub_1', quantity: 3, plan: 'Standard', interval: 'month' };
const license = { id: 'l1', key: 'ABCDE-FGHIJ-KLMNO' };
const node = { id: 'n1', fingerprint: 'fp-1', hostname: 'web-01' };
const at = new Date('2026-12-24T10:00:00Z');
const before = new Date('2026-11-24T10:00:00Z');

const summary = (e: AuditEvent) => toAuditEntry(e).summary;

describe('activity log summaries', () => {
  it('words account events', () => {
    expect(summary({ ...who, type: 'signed_in', method: 'link' })).toBe('Signed in with an e-mailed link');
    expect(summary({ ...who, type: 'signed_in', method: 'google' })).toBe('Signed in with Google');
    expect(summary({ ...who, type: 'identity_linked' })).toBe('Linked sign-in with Google');
    expect(summary({ ...who, type: 'onboarded' })).toBe('Completed onboarding');
    expect(summary({ ...who, type: 'profile_updated', changed: ['fname', 'lname', 'company'] })).toBe(
      'Updated the profile (first name, last name, company)',
    );
    expect(summary({ userId: null, actor: 'x', type: 'account_deleted', accountId: 'u1' })).toBe(
      'Deleted the account and erased its personal data',
    );
  });

  it('words license and node events', () => {
    expect(summary({ ...who, type: 'node_activated', license, node })).toBe('Activated node web-01 on license ABCDE-…');
    expect(summary({ ...who, type: 'node_released', license, node: { ...node, hostname: null } })).toBe(
      'Released node fp-1 from license ABCDE-…',
    );
    expect(summary({ ...who, type: 'license_issued', license, maxNodes: 1, expiresAt: at, subscriptionId: null })).toBe(
      'Issued license ABCDE-… for 1 node, valid until 2026-12-24',
    );
    expect(summary({ ...who, type: 'license_resized', license, from: 3, to: 7 })).toBe(
      'Changed license ABCDE-… from 3 nodes to 7 nodes',
    );
    expect(summary({ ...who, type: 'license_extended', license, from: before, to: at })).toBe(
      'Extended license ABCDE-… until 2026-12-24',
    );
    expect(summary({ ...who, type: 'license_expired', license, from: at, to: before })).toBe(
      'License ABCDE-… ends on 2026-11-24',
    );
    expect(summary({ ...who, type: 'license_revoked', license })).toBe('Revoked license ABCDE-…');
  });

  it('words card events', () => {
    expect(summary({ ...who, type: 'card_added', cardId: 'pm_1', card: { brand: 'visa', last4: '4242' } })).toBe(
      'Added Visa card ending in 4242',
    );
    expect(summary({ ...who, type: 'card_added', cardId: 'pm_1' })).toBe('Added a card');
    expect(summary({ ...who, type: 'card_removed', cardId: 'pm_1', card: { brand: 'visa', last4: '4242' } })).toBe(
      'Removed visa card ending in 4242',
    );
    expect(
      summary({
        ...who,
        type: 'card_removed',
        cardId: 'pm_1',
        card: { brand: 'visa', last4: '4242' },
        subscriptionsMovedTo: { last4: '5556' },
      }),
    ).toBe('Removed visa card ending in 4242; subscriptions now use the card ending in 5556');
  });

  it('words subscription events', () => {
    const s = { ...who, subscription: sub };
    expect(summary({ ...s, type: 'subscription_created' })).toBe('Subscribed to 3 × Standard (monthly)');
    expect(summary({ ...s, type: 'subscription_quantity_changed', from: 3, to: 5 })).toBe('Changed the quantity from 3 to 5');
    expect(summary({ ...s, type: 'subscription_interval_changed', from: 'month', to: 'year' })).toBe(
      'Changed billing from monthly to yearly',
    );
    expect(summary({ ...s, type: 'subscription_renewed', until: at })).toBe(
      'Renewed 3 × Standard (monthly) until December 24, 2026',
    );
    expect(summary({ ...s, type: 'subscription_renewed', until: at, paidOpenInvoice: true })).toBe(
      'Paid the open invoice of 3 × Standard (monthly); renewed until December 24, 2026',
    );
    expect(summary({ ...s, type: 'subscription_payment_failed', invoice: { number: 'INV-7' } })).toBe(
      'The renewal payment of 3 × Standard (monthly) failed (invoice INV-7)',
    );
    expect(summary({ ...s, type: 'subscription_cancelled', endsOn: at, by: 'customer' })).toBe(
      'Cancelled 3 × Standard (monthly); access continues until December 24, 2026',
    );
    expect(summary({ ...s, type: 'subscription_cancelled', endsOn: at, by: 'provider' })).toBe(
      'Cancelled 3 × Standard (monthly); it ends on December 24, 2026',
    );
    expect(summary({ ...s, type: 'subscription_reactivated', renewsOn: at })).toBe(
      'Re-activated 3 × Standard (monthly); it renews on December 24, 2026',
    );
    expect(summary({ ...s, type: 'subscription_reactivated' })).toBe('Re-activated 3 × Standard (monthly)');
    expect(summary({ ...s, type: 'subscription_ended', reason: 'unpaid' })).toBe(
      'Ended 3 × Standard (monthly): the renewal invoice was not paid',
    );
    expect(summary({ ...s, type: 'subscription_ended', reason: 'cancelled' })).toBe(
      'Ended 3 × Standard (monthly) at the end of the paid period',
    );
    expect(summary({ ...s, type: 'subscription_ended', reason: 'account_deleted' })).toBe(
      'Ended 3 × Standard (monthly) because the account was deleted',
    );
    expect(summary({ ...s, type: 'subscription_ended' })).toBe('Ended 3 × Standard (monthly)');
  });

  it('stores the action, subject and facts beside the summary', () => {
    expect(
      toAuditEntry({
        ...who,
        type: 'subscription_quantity_changed',
        subscription: sub,
        from: 3,
        to: 5,
        invoice: { number: 'INV-8', amountDue: 400 },
      }),
    ).toMatchObject({
      action: 'subscription_quantity_changed',
      userId: 'u1',
      actor: 'ada@example.com',
      subjectType: 'subscription',
      subjectId: 'sub_1',
      data: { from: 3, to: 5, invoice: 'INV-8', amountDue: 400 },
    });
    expect(toAuditEntry({ ...who, type: 'node_activated', license, node })).toMatchObject({
      subjectType: 'node',
      subjectId: 'n1',
      data: { licenseId: 'l1', fingerprint: 'fp-1', hostname: 'web-01' },
    });
    // A provider's report of a new subscription has no checkout facts: no data at all.
    expect(toAuditEntry({ ...who, type: 'subscription_created', subscription: sub }).data).toBeUndefined();
    expect(toAuditEntry({ ...who, type: 'signed_in', method: 'link' })).not.toHaveProperty('subjectType');
  });

  it("marks what the vendor's staff did, without naming them", () => {
    const staff = { userId: 'u1', actor: STAFF_ACTOR };
    expect(summary({ ...staff, type: 'license_suspended', license })).toBe("Suspended license ABCDE-… (by the vendor's staff)");
    expect(summary({ ...staff, type: 'license_resumed', license })).toBe("Resumed license ABCDE-… (by the vendor's staff)");
    expect(toAuditEntry({ ...staff, type: 'license_extended', license, from: before, to: at })).toMatchObject({
      actor: 'vendor-staff',
      summary: "Extended license ABCDE-… until 2026-12-24 (by the vendor's staff)",
    });
    expect(summary({ ...who, type: 'license_suspended', license })).toBe('Suspended license ABCDE-…');
  });
});
