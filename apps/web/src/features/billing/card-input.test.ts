import { luhnValid } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  cvcLength,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
} from './card-input';

const now = new Date(2026, 5, 15); // June 2026

describe('card number', () => {
  it('groups digits in fours as typed, Amex as 4-6-5, and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 42')).toBe('4242 42');
    expect(formatCardNumber('4242-4242x42')).toBe('4242 4242 42');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('37828224631000599')).toBe('3782 822463 10005');
    expect(formatCardNumber('4'.repeat(25))).toHaveLength(19 + 4);
  });

  it('keeps the caret after the same digit', () => {
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
    expect(caretAfterDigits('4242', 9)).toBe(4);
  });

  it('checks the Luhn sum', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('explains what is wrong', () => {
    expect(checkCardNumber('')).toBe('Enter your card number.');
    expect(checkCardNumber('4242 4242')).toBe('Your card number is incomplete.');
    expect(checkCardNumber('4242 4242 4242 4241')).toBe('Your card number is invalid.');
    expect(checkCardNumber('4242 4242 4242 4242')).toBeNull();
  });
});

describe('expiry', () => {
  it('formats MM/YY as typed', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(parseExpiry('12/34')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('1/34')).toBeNull();
  });

  it('accepts this month and later, refuses the past and nonsense', () => {
    expect(checkExpiry('', now)).toBe("Enter your card's expiry date.");
    expect(checkExpiry('12/3', now)).toBe("Your card's expiry date is incomplete.");
    expect(checkExpiry('13/30', now)).toBe("Your card's expiry month is invalid.");
    expect(checkExpiry('05/26', now)).toBe('Your card has expired.');
    expect(checkExpiry('06/26', now)).toBeNull();
    expect(checkExpiry('01/27', now)).toBeNull();
    expect(checkExpiry('01/99', now)).toBe("Your card's expiry year is invalid.");
  });
});

describe('security code', () => {
  it('wants 3 digits, 4 on American Express', () => {
    expect(cvcLength('4242')).toBe(3);
    expect(cvcLength('3782 82')).toBe(4);
    expect(checkCvc('', '4242')).toBe("Enter your card's security code.");
    expect(checkCvc('12', '4242')).toBe("Your card's security code is incomplete.");
    expect(checkCvc('123', '4242')).toBeNull();
    expect(checkCvc('123', '3782 822463 10005')).toBe("Your card's security code is incomplete.");
    expect(checkCvc('1234', '3782 822463 10005')).toBeNull();
  });
});
