import { z } from 'zod';
import { FINGERPRINT_MAX_LENGTH, HOSTNAME_MAX_LENGTH } from './constants';
import { pageOf } from './common';

/** Key alphabet without look-alikes (no 0/O, 1/I/L): 31 symbols. */
export const LICENSE_KEY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 25 characters in 5 groups of 5, the last one a check character. */
export const LICENSE_KEY_PATTERN = /^[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){4}$/;

export const LicenseKeySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(LICENSE_KEY_PATTERN, 'A license key has 25 characters in 5 groups, like ABCDE-FGHJK-MNPQR-STUVW-XYZ23');

export const LicenseKeyParamsSchema = z.strictObject({ licenseKey: LicenseKeySchema });
export const NodeParamsSchema = z.strictObject({
  licenseKey: LicenseKeySchema,
  id: z.uuid('This node id is not valid'),
});

export const LICENSE_STATUSES = ['active', 'expired', 'suspended'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

export const LicenseSchema = z.object({
  licenseKey: z.string(),
  status: z.enum(LICENSE_STATUSES),
  maxNodes: z.number().int(),
  activeNodes: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
  stripeId: z.string().nullable(),
});
export type License = z.infer<typeof LicenseSchema>;
export const LicensePageSchema = pageOf(LicenseSchema);

export const NodeSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  hostname: z.string().nullable(),
  activatedAt: z.string(),
  lastSeenAt: z.string(),
});
export type LicenseNode = z.infer<typeof NodeSchema>;
export const NodePageSchema = pageOf(NodeSchema);

export const FingerprintSchema = z
  .string({ error: 'The fingerprint must be text' })
  .trim()
  .min(1, 'Enter the node fingerprint')
  .max(FINGERPRINT_MAX_LENGTH, `A fingerprint can be at most ${FINGERPRINT_MAX_LENGTH} characters`)
  .regex(/^[\x21-\x7e]+$/, 'A fingerprint may only contain printable characters without spaces');

export const ActivateBodySchema = z.strictObject({
  fingerprint: FingerprintSchema,
  hostname: z
    .string({ error: 'The hostname must be text' })
    .trim()
    .max(HOSTNAME_MAX_LENGTH, `A hostname can be at most ${HOSTNAME_MAX_LENGTH} characters`)
    .optional(),
});
export type ActivateBody = z.input<typeof ActivateBodySchema>;
export const ActivateResponseSchema = z.object({ node: NodeSchema, license: LicenseSchema.omit({ stripeId: true }) });

export const ValidateBodySchema = z.strictObject({
  fingerprint: FingerprintSchema.optional(),
  nonce: z
    .string({ error: 'The nonce must be text' })
    .max(128, 'A nonce can be at most 128 characters')
    .optional(),
});
export type ValidateBody = z.input<typeof ValidateBodySchema>;

export const VALIDATION_CODES = [
  'VALID',
  'EXPIRED',
  'SUSPENDED',
  'NOT_ACTIVATED',
  'NODE_LIMIT_REACHED',
  'NOT_FOUND',
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export const ValidateResponseSchema = z.object({
  valid: z.boolean(),
  code: z.enum(VALIDATION_CODES),
  license: z
    .object({
      licenseKey: z.string(),
      status: z.enum(LICENSE_STATUSES),
      maxNodes: z.number().int(),
      activeNodes: z.number().int(),
      expiresAt: z.string(),
    })
    .optional(),
  node: z.object({ id: z.string(), fingerprint: z.string() }).optional(),
  nonce: z.string().nullable(),
  checkedAt: z.string(),
});
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;

export const PublicKeyResponseSchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  publicKeyPem: z.string(),
});
export type PublicKeyResponse = z.infer<typeof PublicKeyResponseSchema>;
