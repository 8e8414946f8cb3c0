/** The Luhn check of a card number (digits only); the server and the card form share it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Card brands as Stripe names them ('visa', 'amex', …), and 'unknown'. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

/**
 * The brand of a card number from its leading digits (IIN ranges), named as Stripe names them. The
 * local billing engine stores it; the card form shows it as the number is typed.
 */
export function cardBrand(digits: string): CardBrand {
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits.startsWith('4')) return 'visa';
  if ((p2 >= 51 && p2 <= 55) || (digits.length >= 6 && p6 >= 222100 && p6 <= 272099)) return 'mastercard';
  if (p2 === 34 || p2 === 37) return 'amex';
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (digits.length >= 6 && p6 >= 622126 && p6 <= 622925))
    return 'discover';
  if (p2 === 36 || p2 === 38 || p2 === 39 || (p3 >= 300 && p3 <= 305) || p4 === 3095) return 'diners';
  if (p4 >= 3528 && p4 <= 3589) return 'jcb';
  if (p2 === 62 || p2 === 81) return 'unionpay';
  return 'unknown';
}

const BRAND_LABELS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A brand as people write it ('visa' -> 'Visa', 'amex' -> 'American Express'); an unknown one is 'Card'. */
export function cardBrandLabel(brand: string): string {
  return BRAND_LABELS[brand.toLowerCase()] ?? 'Card';
}
