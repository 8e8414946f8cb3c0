import { z } from 'zod';

/** Asks VIES again about a customer's EU VAT number that was 'pending' (VIES could not be asked). */
export const ViesCheckJobSchema = z.object({ userId: z.string(), value: z.string() });
