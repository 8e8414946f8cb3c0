import { describe, expect, it } from 'vitest';
import {
  companyGroupFor,
  DAY_MS,
  displayName,
  hasAccess,
  HOUR_MS,
  initials,
  intervalLabel,
  isConfirmPhrase,
  otherInterval,
  plural,
} from './display';
import { cardBrand, cardBrandLabel } from './cards';
import { FREE_MAIL_DOMAINS } from './constants';
import { LICENSE_STATUS_BADGE, nodeHealth } from './status-display';

describe('displayName', () => {
  it('joins first and last name', () => expect(displayName({ fname: 'Ada', lname: 'Lovelace' })).toBe('Ada Lovelace'));
  it('uses one name when the other is empty', () => expect(displayName({ fname: '', lname: 'Lovelace' })).toBe('Lovelace'));
  it("says 'No name' when both are empty", () => expect(displayName({ fname: ' ', lname: '' })).toBe('No name'));
});

describe('initials', () => {
  it('takes the first letter of each name', () => expect(initials({ fname: 'ada', lname: 'lovelace' })).toBe('AL'));
  it('falls back to a question mark', () => expect(initials({ fname: '', lname: '' })).toBe('?'));
});

describe('companyGroupFor', () => {
  it('lists 18 free-mail providers', () => expect(new Set(FREE_MAIL_DOMAINS).size).toBe(18));
  it('groups a company domain', () => expect(companyGroupFor('ada@Acme.example')).toBe('acme.example'));
  it.each(FREE_MAIL_DOMAINS)('does not group %s', (d) => expect(companyGroupFor(`someone@${d}`)).toBeNull());
  it('does not group a malformed address', () => expect(companyGroupFor('nobody')).toBeNull());
});

describe('isConfirmPhrase', () => {
  it.each(['I confirm', 'i confirm', 'I CONFIRM', 'i CoNfIrM'])('accepts %j (any letter case)', (typed) =>
    expect(isConfirmPhrase(typed)).toBe(true),
  );
  it.each([' I confirm', 'I confirm ', ' I confirm ', 'I  confirm', 'I confirm it', 'Iconfirm', ''])(
    'refuses %j (nothing is trimmed)',
    (typed) => expect(isConfirmPhrase(typed)).toBe(false),
  );
});

describe('card brands', () => {
  it.each([
    ['4', 'visa'],
    ['5555', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['37', 'amex'],
    ['6011', 'discover'],
    ['3056', 'diners'],
    ['3566', 'jcb'],
    ['62', 'unionpay'],
    ['', 'unknown'],
    ['9', 'unknown'],
  ])('%j is %s, from the first digits typed', (digits, brand) => expect(cardBrand(digits)).toBe(brand));
  it('names brands as people write them', () => {
    expect(cardBrandLabel('visa')).toBe('Visa');
    expect(cardBrandLabel('amex')).toBe('American Express');
    expect(cardBrandLabel('unknown')).toBe('Card');
  });
});

describe('billing display rules', () => {
  it('writes an interval with ly', () => expect([intervalLabel('month'), intervalLabel('year')]).toEqual(['monthly', 'yearly']));
  it('switches the interval', () => expect([otherInterval('month'), otherInterval('year')]).toEqual(['year', 'month']));
  it.each([
    ['active', true],
    ['past_due', true],
    ['incomplete', false],
    ['canceled', false],
  ])('access while %s: %s', (status, access) => expect(hasAccess({ status })).toBe(access));
  it('counts with the right noun', () => {
    expect(plural(1, 'node')).toBe('1 node');
    expect(plural(3, 'node')).toBe('3 nodes');
    expect(plural(0, 'entry', 'entries')).toBe('0 entries');
  });
  it('has a day of 24 hours', () => expect(DAY_MS).toBe(24 * HOUR_MS));
});

describe('node health', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  const recent = { lastSeenAt: '2026-06-10T11:00:00Z' };
  const old = { lastSeenAt: '2026-06-01T11:00:00Z' };
  it('is healthy or stale by its last validation while its license is active', () => {
    expect(nodeHealth(recent, 'active', now)).toEqual({ label: 'Healthy', tone: 'positive' });
    expect(nodeHealth(old, 'active', now)).toEqual({ label: 'Stale', tone: 'warning' });
  });
  it('is never healthy on a suspended or expired license, however recently it asked', () => {
    expect(nodeHealth(recent, 'suspended', now)).toEqual({ label: 'License suspended', tone: 'critical' });
    expect(nodeHealth(recent, 'expired', now)).toEqual({ label: 'License expired', tone: 'critical' });
  });
  it('gives a suspended license an alarm colour, not the grey of what ended', () => {
    expect(LICENSE_STATUS_BADGE.suspended.color).toBe('red');
  });
});
