import { QUANTITY_MAX, QUANTITY_MIN, TEXT } from './constants';

// A node count's check, without zod and apart from the first screen's modules: the billing page
// checks it as it renders, before its validation code arrives (ADR 140).

/** Why a node count is refused: the contract's QuantitySchema and the pages' own check say the same. */
export const QUANTITY_REFUSALS = {
  whole: 'The quantity must be a whole number',
  min: `The quantity must be at least ${QUANTITY_MIN}`,
  max: `The quantity can be at most ${QUANTITY_MAX}`,
} as const;

/**
 * A subscription's quantity (at checkout) or new quantity (`current` given): the message that
 * refuses it, or null when it is a whole number in QUANTITY_MIN..QUANTITY_MAX and, when `current`
 * is given, differs from it. The pages check it as they render, without zod; the contract's
 * QuantitySchema gives the same messages (display-forms.test.ts compares them).
 */
export function quantityProblem(value: number | string, current?: number): string | null {
  if (typeof value === 'string' && value.trim() === '')
    return current === undefined ? 'Enter the number of nodes' : 'Enter the new number of nodes';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) return QUANTITY_REFUSALS.whole;
  if (n < QUANTITY_MIN) return QUANTITY_REFUSALS.min;
  if (n > QUANTITY_MAX) return QUANTITY_REFUSALS.max;
  if (current !== undefined && n === current) return TEXT.quantityMustDiffer;
  return null;
}
