import { z } from 'zod';

export const SUPPORT_PLANS = ['none', 'standard', 'premium'] as const;
export type SupportPlan = (typeof SUPPORT_PLANS)[number];

export const SupportInfoSchema = z.object({
  plan: z.enum(SUPPORT_PLANS),
  planName: z.string(),
  /** What the plan gives, in a sentence or two; for `none` it says what is available without one. */
  summary: z.string(),
  /** Nodes of the customer's active subscriptions: the figure the plan was derived from. */
  licensedNodes: z.number().int(),
  /** From this many licensed nodes on, support is premium. */
  premiumMinNodes: z.number().int(),
  channels: z.array(z.object({ kind: z.enum(['email', 'phone', 'portal']), label: z.string(), value: z.string() })),
  hours: z.string(),
  responseTargets: z.array(z.object({ severity: z.string(), description: z.string(), target: z.string() })),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type SupportInfo = z.infer<typeof SupportInfoSchema>;

export const DownloadQuerySchema = z.strictObject({
  refresh: z.enum(['true', 'false'], { error: 'refresh must be "true" or "false"' }).optional(),
});

export const DownloadInfoSchema = z.object({
  url: z.string(),
  expiresAt: z.string(),
  filename: z.string(),
  version: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  releaseNotesUrl: z.string().nullable(),
});
export type DownloadInfo = z.infer<typeof DownloadInfoSchema>;

/** A release file's name: letters, digits, dot, dash and underscore only (never a path). */
export const RELEASE_FILENAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export const DownloadFileParamsSchema = z.strictObject({
  filename: z.string().max(200, 'This download link is not valid'),
});

/**
 * The signed part of a download URL. Values are checked by the signature, not here, so that a
 * truncated or tampered link answers 403 with one message rather than a validation error.
 */
export const DownloadFileQuerySchema = z.strictObject({
  expires: z.string().max(20).optional(),
  u: z.string().max(64).optional(),
  sig: z.string().max(128).optional(),
});
