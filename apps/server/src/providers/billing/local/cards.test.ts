import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { luhnValid } from '@portal/contract';
import { assertChargeable, cardBrand, checkCard } from './cards';

const now = new Date('2025-06-15T12:00:00Z');
const card = (number: string, extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...extra,
});

function failure(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('Luhn and brand', () => {
  it.each([
    '4242424242424242',
    '4000000000000002',
    '5555555555554444',
    '378282246310005',
    '6011111111111117',
    '3056930009020004',
    '3566002020360505',
    '6200000000000005',
  ])('%s passes the Luhn check', (n) => expect(luhnValid(n)).toBe(true));

  it.each(['4242424242424241', '1234567812345678', '4000000000000001'])('%s fails the Luhn check', (n) =>
    expect(luhnValid(n)).toBe(false),
  );

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3056930009020004', 'diners'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
  ])('%s is %s', (n, brand) => expect(cardBrand(n)).toBe(brand));
});

describe('checkCard (Stripe test numbers with Stripe meanings)', () => {
  it('accepts 4242 4242 4242 4242 with spaces and keeps only brand, last 4 and expiry', () => {
    const c = checkCard(card('4242 4242 4242 4242'), now);
    expect(c).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, behaviour: 'succeeds' });
    expect(JSON.stringify(c)).not.toContain('424242');
  });

  it('declines 4000 0000 0000 0002 at attach time with 402', () => {
    expect(failure(() => checkCard(card('4000 0000 0000 0002'), now))).toEqual({
      status: 402,
      message: 'Your card was declined.',
    });
  });

  it('attaches 4000 0000 0000 9995, whose charges then fail for insufficient funds', () => {
    const c = checkCard(card('4000000000009995'), now);
    expect(c.behaviour).toBe('insufficient_funds');
    expect(failure(() => assertChargeable(c.behaviour))).toEqual({ status: 402, message: 'Your card has insufficient funds.' });
  });

  it('attaches 4000 0000 0000 0341, whose charges are declined', () => {
    const c = checkCard(card('4000000000000341'), now);
    expect(failure(() => assertChargeable(c.behaviour))).toEqual({ status: 402, message: 'Your card was declined.' });
    expect(() => assertChargeable('succeeds')).not.toThrow();
  });

  it.each(['4242424242424241', '12345', 'abcd efgh ijkl mnop', '', '4242-4242-4242-4243'])('rejects %j as invalid (400)', (n) => {
    expect(failure(() => checkCard(card(n), now))).toEqual({ status: 400, message: 'Your card number is invalid.' });
  });

  it('rejects an expired card and accepts one expiring this month', () => {
    expect(failure(() => checkCard(card('4242424242424242', { expMonth: 5, expYear: 2025 }), now))).toEqual({
      status: 400,
      message: 'Your card has expired.',
    });
    expect(checkCard(card('4242424242424242', { expMonth: 6, expYear: 2025 }), now).expMonth).toBe(6);
  });

  it('wants 4 security digits on amex and 3 elsewhere', () => {
    expect(checkCard(card('378282246310005', { cvc: '1234' }), now).brand).toBe('amex');
    expect(failure(() => checkCard(card('378282246310005', { cvc: '123' }), now)).status).toBe(400);
    expect(failure(() => checkCard(card('4242424242424242', { cvc: '1234' }), now))).toEqual({
      status: 400,
      message: "Your card's security code is invalid.",
    });
  });
});
