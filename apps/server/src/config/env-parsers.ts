import { z } from 'zod';

/** How a variable's text is read: empty is unset everywhere, numbers are whole and in range, URLs name their scheme. */

export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

export const url = (protocols: string[]) =>
  optionalString.refine(
    (v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)),
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** `true`, `false` or unset (undefined), as text. */
export const trueOrFalse = optionalString.pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).optional());
