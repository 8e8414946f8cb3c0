import { z } from 'zod';
import { isStorableText, isVisibleText, STORABLE_TEXT_MESSAGE, VISIBLE_TEXT_MESSAGE } from './common';
import { ReasonSchema } from './console-actions';
import { StaffRoleSchema } from './console-auth';

/**
 * Staff API tokens (docs/decisions/095-staff-api-tokens.md): an owner creates one in the console
 * for the vendor's scripts; it acts with one staff role on the console's API, on the console's
 * listener only, until it expires or is revoked.
 */

/** Every staff secret starts with this (customers' tokens with `pat_`), so a scanner tells them apart. */
export const STAFF_TOKEN_PREFIX = 'stk_';
/** A staff token always expires: at most this many days after its creation. */
export const STAFF_TOKEN_MAX_DAYS = 365;
/** The lifetimes the console offers (the API takes any whole number of days up to the maximum). */
export const STAFF_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const STAFF_TOKEN_NAME_MAX_LENGTH = 60;
/** The most tokens (not revoked, expired ones included) an install holds at once. */
export const STAFF_TOKEN_LIMIT = 50;

export const CreateStaffTokenBodySchema = z.strictObject({
  name: z
    .string({ error: 'Enter a name for the token' })
    .trim()
    .min(1, 'Enter a name for the token')
    .max(STAFF_TOKEN_NAME_MAX_LENGTH, `The name can be at most ${STAFF_TOKEN_NAME_MAX_LENGTH} characters`)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isVisibleText, VISIBLE_TEXT_MESSAGE),
  role: StaffRoleSchema,
  expiresInDays: z
    .number({ error: `The token expires in 1 to ${STAFF_TOKEN_MAX_DAYS} days (a whole number)` })
    .int(`The token expires in 1 to ${STAFF_TOKEN_MAX_DAYS} days (a whole number)`)
    .min(1, `The token expires in 1 to ${STAFF_TOKEN_MAX_DAYS} days (a whole number)`)
    .max(STAFF_TOKEN_MAX_DAYS, `A staff token expires at most ${STAFF_TOKEN_MAX_DAYS} days after its creation`),
  reason: ReasonSchema,
});
export type CreateStaffTokenBody = z.input<typeof CreateStaffTokenBodySchema>;

export const StaffTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  /** The secret's first characters (`stk_` and 4 more), to tell tokens apart; never enough to use. */
  hint: z.string(),
  /** The owner who created it (null once that member's row is gone). */
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** To the minute; null until first used. */
  lastUsedAt: z.string().nullable(),
});
export type StaffToken = z.infer<typeof StaffTokenSchema>;

export const StaffTokenListSchema = z.object({ items: z.array(StaffTokenSchema) });
export type StaffTokenList = z.infer<typeof StaffTokenListSchema>;

/** The answer of creation: the only time the secret is shown. */
export const CreatedStaffTokenSchema = z.object({ token: StaffTokenSchema, secret: z.string() });
export type CreatedStaffToken = z.infer<typeof CreatedStaffTokenSchema>;

export const StaffTokenParamsSchema = z.strictObject({
  tokenId: z.uuid({ error: 'This token id is not valid' }),
});
/** DELETE /api/console/tokens/{tokenId}: why. */
export const RevokeStaffTokenBodySchema = z.strictObject({ reason: ReasonSchema });
export type RevokeStaffTokenBody = z.input<typeof RevokeStaffTokenBodySchema>;
