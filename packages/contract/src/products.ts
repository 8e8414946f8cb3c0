import { z } from 'zod';

export const SUPPORT_PLANS = ['none', 'standard', 'premium'] as const;
export type SupportPlan = (typeof SUPPORT_PLANS)[number];

export const SupportInfoSchema = z.object({
  plan: z.enum(SUPPORT_PLANS),
  planName: z.string(),
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
