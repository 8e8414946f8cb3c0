import { z } from 'zod';
import { QuantitySchema } from './billing';
import { TEXT } from './constants';
import { isConfirmPhrase } from './display';

// The display rules that need zod, apart from display.ts so that importing a plain rule (a name,
// an interval's label) never builds a schema.

/** A form's typed confirmation ('I confirm', see isConfirmPhrase), with the portal's message when it is not. */
export const ConfirmationSchema = z.object({
  confirm: z.string().refine(isConfirmPhrase, TEXT.confirmRequired),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;

/**
 * A subscription's quantity (at checkout) or new quantity (`current` given): the message that refuses it, or null when it is a whole number in
 * QUANTITY_MIN..QUANTITY_MAX (the contract's QuantitySchema) and, when `current` is given, differs from it.
 */
export function quantityProblem(value: number | string, current?: number): string | null {
  if (typeof value === 'string' && value.trim() === '')
    return current === undefined ? 'Enter the number of nodes' : 'Enter the new number of nodes';
  const parsed = QuantitySchema.safeParse(typeof value === 'number' ? value : Number(value));
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'The quantity must be a whole number';
  if (current !== undefined && parsed.data === current) return TEXT.quantityMustDiffer;
  return null;
}
