import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

const pageNumber = (label: string, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label} must be at least 1`).max(max, `${label} must be at most ${max}`))
    .optional()
    .transform((v) => v ?? fallback);

/** `?page&size` of every list: page from 1, size 1..100 (default 20). */
export const PageQuerySchema = z.strictObject({
  page: pageNumber('page', 1_000_000, 1),
  size: pageNumber('size', PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.output<typeof PageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
  });

export const itemsOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

export type Page<T> = { items: T[]; page: number; size: number; total: number };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Text PostgreSQL can store: well-formed Unicode without NUL characters. */
export const isStorableText = (v: string) => !v.includes('\u0000') && !LONE_SURROGATE.test(v);
export const STORABLE_TEXT_MESSAGE = 'Remove the invisible control characters from this text';

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
const JOINER = /^[\u200C\u200D]$/u;
/** Letters of scripts that shape with joiners (Arabic, Persian, Indic…); not Latin, Greek or Cyrillic. */
const SHAPED_LETTER = /^(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])[\p{L}\p{M}]$/u;
const EMOJI_PART = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;

/**
 * Text shown to other people (names on invoices): no control characters and no invisible
 * formatting characters (direction overrides and marks, zero-width spaces, word joiners, BOM),
 * which could make a name read differently from what is stored. A zero-width (non-)joiner is kept
 * where it is part of the writing: between letters of a script that shapes with it, or inside an
 * emoji sequence.
 */
export function isVisibleText(v: string): boolean {
  const chars = Array.from(v);
  return chars.every((c, i) => {
    if (!CONTROL_OR_FORMAT.test(c)) return true;
    if (!JOINER.test(c)) return false;
    const before = chars[i - 1] ?? '';
    const after = chars[i + 1] ?? '';
    if (SHAPED_LETTER.test(before) && SHAPED_LETTER.test(after)) return true;
    return c === '\u200D' && EMOJI_PART.test(before) && /^\p{Extended_Pictographic}$/u.test(after);
  });
}
export const VISIBLE_TEXT_MESSAGE =
  'Remove the invisible characters (such as direction marks or zero-width spaces) from this text';

/** An opaque provider id in a path (payment method, subscription, invoice). */
export const OpaqueIdSchema = z.string().min(1).max(255).refine(isStorableText, 'This id is not valid');

/** ISO-8601 timestamp as sent over the wire. */
export const TimestampSchema = z.string();

/**
 * A same-origin path to return to after sign-in. Rejects absolute and protocol-relative URLs,
 * backslash tricks and control characters, so it can never send a user off-site.
 */
export const SafePathSchema = z
  .string()
  .max(2048, 'The return path is too long')
  .refine(
    (v) => /^\/(?![/\\])[^\s\\]*$/.test(v) && !/[\u0000-\u001f\u007f]/.test(v),
    'The return path must be a path on this site, such as /app/licenses',
  );

export const EmailSchema = z
  .string({ error: 'Enter your e-mail address' })
  .trim()
  .min(1, 'Enter your e-mail address')
  .max(254, 'That e-mail address is too long')
  .pipe(z.email('Enter a valid e-mail address, such as name@example.com'))
  .transform((v) => v.toLowerCase());
