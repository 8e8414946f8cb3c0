import { describe, expect, it } from 'vitest';
import { type ValidateResponse, expiryLevel, isStale, usageLevel } from '@portal/contract';
import { activateCommand, explainValidation, validateCommand } from './license-display';
import { lastPage, pageSummary } from '@portal/ui';

const now = new Date('2030-01-10T12:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();
const hours = (n: number) => new Date(now.getTime() + n * 3_600_000).toISOString();

describe('usageLevel', () => {
  it('is full at the limit, near from 80 % or with one slot left on 3+ nodes, else normal', () => {
    expect(usageLevel(5, 5)).toBe('full');
    expect(usageLevel(6, 5)).toBe('full');
    expect(usageLevel(1, 1)).toBe('full');
    expect(usageLevel(8, 10)).toBe('near');
    expect(usageLevel(4, 5)).toBe('near');
    expect(usageLevel(2, 3)).toBe('near');
    expect(usageLevel(1, 2)).toBe('normal');
    expect(usageLevel(0, 1)).toBe('normal');
    expect(usageLevel(7, 10)).toBe('normal');
    expect(usageLevel(0, 3)).toBe('normal');
  });
});

describe('expiryLevel', () => {
  it('is expired once the end has passed or the server says so, soon within 14 days, else later', () => {
    expect(expiryLevel({ expiresAt: days(-1), status: 'active' }, now)).toBe('expired');
    expect(expiryLevel({ expiresAt: days(30), status: 'expired' }, now)).toBe('expired');
    expect(expiryLevel({ expiresAt: days(14), status: 'active' }, now)).toBe('soon');
    expect(expiryLevel({ expiresAt: days(1), status: 'active' }, now)).toBe('soon');
    expect(expiryLevel({ expiresAt: days(15), status: 'active' }, now)).toBe('later');
  });
});

describe('isStale', () => {
  it('marks nodes unseen for more than 24 hours', () => {
    expect(isStale({ lastSeenAt: hours(-25) }, now)).toBe(true);
    expect(isStale({ lastSeenAt: hours(-23) }, now)).toBe(false);
    expect(isStale({ lastSeenAt: hours(-24) }, now)).toBe(false);
  });
});

describe('explainValidation', () => {
  const license = { licenseKey: 'K', status: 'active' as const, maxNodes: 5, activeNodes: 2, expiresAt: '2030-03-03T00:00:00Z' };
  const base = { nonce: null, checkedAt: now.toISOString(), license };
  const say = (a: Partial<ValidateResponse> & Pick<ValidateResponse, 'code' | 'valid'>, fingerprint?: string) =>
    explainValidation({ ...base, ...a }, { fingerprint, locale: 'en-US' });

  it('says a valid key in words, with the nodes in use and the expiry date', () => {
    expect(say({ valid: true, code: 'VALID' })).toEqual({
      title: 'Valid',
      text: 'This license is valid: 2 of 5 nodes in use, expires on Mar 3, 2030.',
      tone: 'ok',
    });
    expect(say({ valid: true, code: 'VALID', node: { id: 'n', fingerprint: 'fp-1' } }).text).toBe(
      'This license is valid and node fp-1 is activated on it: 2 of 5 nodes in use, expires on Mar 3, 2030.',
    );
  });

  it('explains every other answer with a sentence and a tone', () => {
    expect(say({ valid: false, code: 'EXPIRED', license: { ...license, status: 'expired' } })).toMatchObject({
      title: 'Expired',
      tone: 'danger',
      text: expect.stringContaining('expired on Mar 3, 2030') as string,
    });
    expect(say({ valid: false, code: 'SUSPENDED' })).toMatchObject({ title: 'Suspended', tone: 'neutral' });
    expect(say({ valid: false, code: 'NOT_ACTIVATED' }, 'fp-9')).toEqual({
      title: 'Not activated',
      text: 'The license is valid, but node fp-9 is not activated on it yet. Activating it would take one of the 3 free nodes (2 of 5 nodes in use).',
      tone: 'warn',
    });
    expect(say({ valid: false, code: 'NOT_ACTIVATED', license: { ...license, activeNodes: 4 } }, 'fp-9').text).toContain(
      'would take the last free node',
    );
    expect(say({ valid: false, code: 'NODE_LIMIT_REACHED', license: { ...license, activeNodes: 5 } }, 'fp-9')).toMatchObject({
      title: 'Node limit reached',
      tone: 'danger',
      text: expect.stringMatching(/^Node fp-9 is not activated, and all 5 nodes of this license are in use\./) as string,
    });
    expect(say({ valid: false, code: 'NOT_FOUND', license: undefined })).toMatchObject({ title: 'Not found', tone: 'danger' });
  });
});

describe('commands', () => {
  it('use the real key and origin, JSON bodies and the machine id as fingerprint', () => {
    const key = '7K3QF-M2XPD-9HRTW-CV4NB-JEZ65';
    const activate = activateCommand('https://portal.example', key);
    expect(activate).toContain(`https://portal.example/api/licenses/${key}/activate`);
    expect(activate).toContain("-H 'content-type: application/json'");
    expect(activate).toContain('$(cat /etc/machine-id)');
    expect(validateCommand('http://localhost:3000', key)).toContain(`http://localhost:3000/api/licenses/${key}/validate`);
    expect(validateCommand('http://localhost:3000', key)).toContain('nonce');
  });
});

describe('pages', () => {
  it('summarises the rows shown and finds the last page', () => {
    expect(pageSummary(1, 10, 3, ['license', 'licenses'])).toBe('3 licenses');
    expect(pageSummary(1, 10, 1, ['license', 'licenses'])).toBe('1 license');
    expect(pageSummary(2, 10, 34, ['node', 'nodes'])).toBe('Showing 11–20 of 34 nodes');
    expect(pageSummary(4, 10, 34, ['node', 'nodes'])).toBe('Showing 31–34 of 34 nodes');
    expect(lastPage(34, 10)).toBe(4);
    expect(lastPage(0, 10)).toBe(1);
  });
});
