import { z } from 'zod';
import { FINGERPRINT_MAX_LENGTH, HOSTNAME_MAX_LENGTH } from './constants';
import { isStorableText, isVisibleText, pageOf, STORABLE_TEXT_MESSAGE, VISIBLE_TEXT_MESSAGE } from './common';
import { isLicenseKeyChecksumValid, LICENSE_KEY_PATTERN, LICENSE_KEY_TYPO_MESSAGE } from './license-key';

/**
 * A license key as typed by a person: trimmed and upper-cased, then the shape (400 "malformed")
 * and the check character (400 "typo", so a mistyped key is told apart from an unknown one).
 */
export const LicenseKeySchema = z
  .string({ error: 'The license key must be text' })
  .trim()
  .toUpperCase()
  .superRefine((key, ctx) => {
    if (!LICENSE_KEY_PATTERN.test(key)) {
      ctx.addIssue({
        code: 'custom',
        message: 'A license key has 25 characters in 5 groups, like 7K3QF-M2XPD-9HRTW-CV4NB-JEZ65',
      });
    } else if (!isLicenseKeyChecksumValid(key)) {
      ctx.addIssue({ code: 'custom', message: LICENSE_KEY_TYPO_MESSAGE });
    }
  });

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
  /**
   * What the vendor's staff told the owner about the suspension (null when they left no message,
   * and whenever the license is not suspended). Only the owner's own views carry it.
   */
  suspensionMessage: z.string().nullable(),
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
    // Shown to staff and to the customer: the visible-text rule of names (no direction overrides,
    // zero-width or control characters that make "evil\u202egnp.exe" read as something else).
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isVisibleText, VISIBLE_TEXT_MESSAGE)
    .optional(),
});
export type ActivateBody = z.input<typeof ActivateBodySchema>;
/** The key holder's answer: not the owner's billing id nor the staff's message to the owner. */
export const ActivateResponseSchema = z.object({
  node: NodeSchema,
  license: LicenseSchema.omit({ stripeId: true, suspensionMessage: true }),
});

export const ValidateBodySchema = z.strictObject({
  fingerprint: FingerprintSchema.optional(),
  // Echoed in the signed answer: the storable-text rules apply (no NUL, no lone surrogates).
  nonce: z
    .string({ error: 'The nonce must be text' })
    .max(128, 'A nonce can be at most 128 characters')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .optional(),
});
export type ValidateBody = z.input<typeof ValidateBodySchema>;

export const VALIDATION_CODES = ['VALID', 'EXPIRED', 'SUSPENDED', 'NOT_ACTIVATED', 'NODE_LIMIT_REACHED', 'NOT_FOUND'] as const;
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
      /**
       * A payment is failing: the license stays valid until the grace's end (= expiresAt), so the
       * product on the node can warn its admin. Absent otherwise.
       */
      grace: z.object({ until: z.string() }).optional(),
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

export type ActivateResponse = z.infer<typeof ActivateResponseSchema>;

/** The header that carries the Ed25519 signature of an activate or validate answer's exact bytes. */
export const SIGNATURE_HEADER = 'signature';

/** What a signed license file vouches for (the signature covers the canonical JSON of this object). */
export const LicenseFileLicenseSchema = z.object({
  key: z.string(),
  customerEmail: z.string().nullable(),
  status: z.enum(LICENSE_STATUSES),
  maxNodes: z.number().int(),
  expiresAt: z.string(),
  /** A payment is failing: valid until the grace's end (= expiresAt). Absent otherwise. */
  grace: z.object({ until: z.string() }).optional(),
  /** When this file was issued (signed); a node keeps the newest file it has. */
  issuedAt: z.string(),
});
export type LicenseFileLicense = z.infer<typeof LicenseFileLicenseSchema>;

/** GET /api/licenses/{key}/file: a signed license document for air-gapped sites. */
export const LicenseFileSchema = z.object({
  license: LicenseFileLicenseSchema,
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  /** Base64 Ed25519 signature over the canonical JSON of `license` (keys sorted, no spaces). */
  signature: z.string(),
});
export type LicenseFile = z.infer<typeof LicenseFileSchema>;

/** The dashboard's license figures: usable (active, unexpired) licenses only for nodes and limits. */
export const LicenseSummarySchema = z.object({
  licenses: z.number().int(),
  activeNodes: z.number().int(),
  maxNodes: z.number().int(),
  atLimit: z.array(z.string()),
  expiringSoon: z.array(z.object({ key: z.string(), expiresAt: z.string() })),
  /** The keys of the user's suspended licenses (staff stopped them: they validate no machine). */
  suspended: z.array(z.string()),
  /** The message staff left for the customer, by the key of a suspended license (only those with one). */
  suspensionMessages: z.record(z.string(), z.string()),
});
export type LicenseSummary = z.infer<typeof LicenseSummarySchema>;
