import { z } from 'zod';
import { NAME_MAX_LENGTH } from './constants';
import { SessionUserSchema } from './auth';
import { isStorableText, isVisibleText, pageOf, STORABLE_TEXT_MESSAGE, VISIBLE_TEXT_MESSAGE } from './common';

const name = (label: string) =>
  z
    .string({ error: `Enter your ${label}` })
    .trim()
    .min(1, `Enter your ${label}`)
    .max(NAME_MAX_LENGTH, `Your ${label} can be at most ${NAME_MAX_LENGTH} characters`)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isVisibleText, VISIBLE_TEXT_MESSAGE);

export const ProfileFieldsSchema = z.strictObject({
  fname: name('first name'),
  lname: name('last name'),
  company: z
    .string({ error: 'The company name must be text' })
    .trim()
    .max(NAME_MAX_LENGTH, `The company name can be at most ${NAME_MAX_LENGTH} characters`)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isVisibleText, VISIBLE_TEXT_MESSAGE)
    .optional(),
});

export const OnboardingBodySchema = ProfileFieldsSchema;
export type OnboardingBody = z.input<typeof OnboardingBodySchema>;

export const UpdateProfileBodySchema = ProfileFieldsSchema;
export type UpdateProfileBody = z.input<typeof UpdateProfileBodySchema>;

export const UserResponseSchema = z.object({ user: SessionUserSchema });
export type UserResponse = z.infer<typeof UserResponseSchema>;

export const DeleteAccountQuerySchema = z.strictObject({
  i_want_to_delete_my_account: z.literal('true', {
    error: 'Add ?i_want_to_delete_my_account=true to confirm that the account should be deleted',
  }),
});

export const AuditEventSchema = z.object({
  id: z.string(),
  action: z.string(),
  summary: z.string(),
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;
export const AuditEventPageSchema = pageOf(AuditEventSchema);

/**
 * GET /api/users/export: everything the portal holds about the signed-in user. Licenses and
 * billing come from their own domains, in the shape those domains export.
 */
/** The whole profile of an account (its data export; the vendor console adds the id). */
export const AccountProfileSchema = z.object({
  email: z.string(),
  fname: z.string(),
  lname: z.string(),
  company: z.string().nullable(),
  picture: z.string().nullable(),
  onboarded: z.boolean(),
  /** The external identity (issuer|subject) linked for Google sign-in, if any. */
  linkedIdentity: z.string().nullable(),
  createdAt: z.string(),
});

export const AccountExportSchema = z.object({
  format: z.literal('customer-portal-account-export'),
  version: z.literal(1),
  exportedAt: z.string(),
  profile: AccountProfileSchema,
  sessions: z.array(
    z.object({ method: z.string(), createdAt: z.string(), lastSeenAt: z.string(), expiresAt: z.string(), current: z.boolean() }),
  ),
  licenses: z.unknown(),
  billing: z.unknown(),
  activity: z.array(AuditEventSchema),
});
export type AccountExport = z.infer<typeof AccountExportSchema>;
