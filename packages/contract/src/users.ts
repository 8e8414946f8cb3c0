import { z } from 'zod';
import { NAME_MAX_LENGTH } from './constants';
import { SessionUserSchema } from './auth';

const name = (label: string) =>
  z
    .string({ error: `Enter your ${label}` })
    .trim()
    .min(1, `Enter your ${label}`)
    .max(NAME_MAX_LENGTH, `Your ${label} can be at most ${NAME_MAX_LENGTH} characters`);

export const ProfileFieldsSchema = z.strictObject({
  fname: name('first name'),
  lname: name('last name'),
  company: z
    .string({ error: 'The company name must be text' })
    .trim()
    .max(NAME_MAX_LENGTH, `The company name can be at most ${NAME_MAX_LENGTH} characters`)
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
