import { AppError } from '../../../lib/errors';
import { cardBrand, luhnValid } from '@portal/contract';

/**
 * Card checks of the local billing engine. The engine accepts Stripe's public test numbers with
 * Stripe's meaning, and declines where Stripe declines:
 *
 * - 4242 4242 4242 4242 (and any other number that passes the Luhn check): succeeds.
 * - 4000 0000 0000 0002: declined when it is attached. Stripe runs a card check when a
 *   SetupIntent is confirmed, so the card is refused there (402 'Your card was declined.') and
 *   never stored; the client secret stays usable for another card, as on Stripe.
 * - 4000 0000 0000 0127: refused at attach time for a wrong security code.
 * - 4000 0000 0000 9995: attaches fine (a card check does not move money) and fails every charge
 *   with 402 'Your card has insufficient funds.': at checkout, on a change, or at renewal.
 * - 4000 0000 0000 0341: attaches fine and fails every charge with 402 'Your card was declined.'
 *
 * Only brand, last 4 digits and expiry are kept; the number lives in this request and nowhere else.
 */

export type CardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds';

type TestCard = { attach?: { code: string; message: string }; behaviour: CardBehaviour };

const TEST_CARDS: Record<string, TestCard> = {
  '4000000000000002': { attach: { code: 'card_declined', message: 'Your card was declined.' }, behaviour: 'declined' },
  '4000000000000127': {
    attach: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
    behaviour: 'declined',
  },
  '4000000000009995': { behaviour: 'insufficient_funds' },
  '4000000000000341': { behaviour: 'declined' },
};

export const DECLINE_MESSAGES: Record<Exclude<CardBehaviour, 'succeeds'>, string> = {
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
};

/** Brand from the leading digits: one rule in the contract, shared with the card form. */
export { cardBrand };

export type CardInput = { number: string; expMonth: number; expYear: number; cvc: string };
export type CheckedCard = { brand: string; last4: string; expMonth: number; expYear: number; behaviour: CardBehaviour };

/**
 * Validates a card as Stripe's card form and SetupIntent confirmation would. Throws 400 for a
 * number, expiry or code that is not valid, 402 for a card the issuer refuses when attached.
 */
export function checkCard(input: CardInput, now: Date): CheckedCard {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    throw new AppError('BAD_REQUEST', 'Your card number is invalid.');
  }
  const monthIndex = (y: number, m: number) => y * 12 + (m - 1);
  if (monthIndex(input.expYear, input.expMonth) < monthIndex(now.getUTCFullYear(), now.getUTCMonth() + 1)) {
    throw new AppError('BAD_REQUEST', 'Your card has expired.');
  }
  const brand = cardBrand(digits);
  if (!new RegExp(brand === 'amex' ? '^\\d{4}$' : '^\\d{3}$').test(input.cvc)) {
    throw new AppError('BAD_REQUEST', "Your card's security code is invalid.");
  }
  const test = TEST_CARDS[digits];
  if (test?.attach) throw new AppError('CARD_DECLINED', test.attach.message);
  return {
    brand,
    last4: digits.slice(-4),
    expMonth: input.expMonth,
    expYear: input.expYear,
    behaviour: test?.behaviour ?? 'succeeds',
  };
}

/** A charge on a stored card: throws 402 with the issuer's reason when the card refuses it. */
export function assertChargeable(behaviour: string): void {
  if (behaviour === 'declined' || behaviour === 'insufficient_funds') {
    throw new AppError('CARD_DECLINED', DECLINE_MESSAGES[behaviour]);
  }
}
