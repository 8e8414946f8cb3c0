import { z } from 'zod';
import { TEXT } from './constants';
import { isConfirmPhrase } from './display';

// The display rules that need zod, apart from display.ts so that importing a plain rule (a name,
// an interval's label, a node count's check) never builds a schema.

/** A form's typed confirmation ('I confirm', see isConfirmPhrase), with the portal's message when it is not. */
export const ConfirmationSchema = z.object({
  confirm: z.string().refine(isConfirmPhrase, TEXT.confirmRequired),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;
