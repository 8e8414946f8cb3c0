import { z } from 'zod';
import { EmailSchema, SafePathSchema } from './common';

export const SessionUserSchema = z.object({
  email: z.string(),
  fname: z.string(),
  lname: z.string(),
  onboarded: z.boolean(),
  picture: z.string().nullable(),
  company: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const RequestLinkBodySchema = z.strictObject({
  email: EmailSchema,
  to: SafePathSchema.optional(),
});
export type RequestLinkBody = z.input<typeof RequestLinkBodySchema>;

export const RequestLinkResponseSchema = z.object({ sent: z.literal(true) });
export type RequestLinkResponse = z.infer<typeof RequestLinkResponseSchema>;

/** The link secret: 32 random bytes, base64url (43 characters). */
export const LinkIdParamsSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This sign-in link is not valid'),
});

export const RedeemLinkResponseSchema = z.object({
  user: SessionUserSchema,
  to: z.string(),
});
export type RedeemLinkResponse = z.infer<typeof RedeemLinkResponseSchema>;

/** Whom a usable link was sent to: the landing page shows it before the person continues. */
export const LinkRecipientResponseSchema = z.object({ email: z.string() });
export type LinkRecipientResponse = z.infer<typeof LinkRecipientResponseSchema>;

export const SessionResponseSchema = z.object({ user: SessionUserSchema });
/** `?optional=true`: 204 instead of 401 when nobody is signed in (the web app's start-up check). */
export const SessionQuerySchema = z.object({ optional: z.literal('true').optional() });
export type SessionQuery = z.infer<typeof SessionQuerySchema>;
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

export const GoogleStartQuerySchema = z.strictObject({ to: SafePathSchema.optional() });

/** What the web app needs to know before sign-in (which buttons to show, branding). */
export const PublicConfigSchema = z.object({
  brandName: z.string(),
  docsUrl: z.string(),
  googleEnabled: z.boolean(),
  billingProvider: z.enum(['local', 'stripe']),
  stripePublishableKey: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
