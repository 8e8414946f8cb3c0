import { luhnValid } from '@portal/contract';
/**
 * The local card form's formatting and checks, worded as Stripe's card form words them so that
 * the messages read the same whichever engine runs. The server checks everything again.
 */

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** American Express numbers (34, 37) are 15 digits grouped 4-6-5 with a 4-digit code. */
export function isAmex(digits: string): boolean {
  return /^3[47]/.test(digits);
}

export function maxCardDigits(digits: string): number {
  return isAmex(digits) ? 15 : 19;
}

/** '4242424242424242' -> '4242 4242 4242 4242' (Amex: '3782 822463 10005'). */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, maxCardDigits(digitsOf(value)));
  if (isAmex(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Where the caret belongs in `formatted` so that it follows the same number of digits as before. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!)) seen += 1;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

export function checkCardNumber(value: string): string | null {
  const digits = digitsOf(value);
  if (digits.length === 0) return 'Enter your card number.';
  if (digits.length < (isAmex(digits) ? 15 : 13)) return 'Your card number is incomplete.';
  if (!luhnValid(digits)) return 'Your card number is invalid.';
  return null;
}

/** Typed digits -> 'MM/YY'; a first digit above 1 is a month on its own ('4' -> '04'). */
export function formatExpiry(value: string): string {
  let digits = digitsOf(value).slice(0, 4);
  if (digits.length === 1 && digits > '1') digits = `0${digits}`;
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

export function parseExpiry(value: string): { month: number; year: number } | null {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!m) return null;
  return { month: Number(m[1]), year: 2000 + Number(m[2]) };
}

export function checkExpiry(value: string, now: Date = new Date()): string | null {
  if (value.trim() === '') return "Enter your card's expiry date.";
  const parsed = parseExpiry(value);
  if (!parsed) return "Your card's expiry date is incomplete.";
  if (parsed.month < 1 || parsed.month > 12) return "Your card's expiry month is invalid.";
  if (parsed.year * 12 + parsed.month - 1 < now.getFullYear() * 12 + now.getMonth()) return 'Your card has expired.';
  if (parsed.year > now.getFullYear() + 20) return "Your card's expiry year is invalid.";
  return null;
}

export function cvcLength(cardNumber: string): 3 | 4 {
  return isAmex(digitsOf(cardNumber)) ? 4 : 3;
}

export function checkCvc(value: string, cardNumber: string): string | null {
  if (value === '') return "Enter your card's security code.";
  if (!/^\d{3,4}$/.test(value) || value.length < cvcLength(cardNumber)) return "Your card's security code is incomplete.";
  return null;
}
