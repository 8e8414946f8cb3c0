import { z } from 'zod';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'RECENT_SIGN_IN_REQUIRED',
  'FORBIDDEN',
  'SECOND_FACTOR_REQUIRED',
  'SECOND_FACTOR_INVALID',
  'CROSS_SITE_REQUEST',
  'NOT_FOUND',
  'CONFLICT',
  'LINK_EXPIRED',
  'LINK_USED',
  'RATE_LIMITED',
  'CARD_DECLINED',
  'NODE_LIMIT_REACHED',
  'LICENSE_INACTIVE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/** The one error shape of every failed call; the web app's error display reads `message`. */
export const ErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(ErrorIssueSchema).optional(),
});
export type ApiError = z.infer<typeof ErrorSchema>;
