import { z } from 'zod';
import { ReasonSchema } from './console-actions';
import { EmailSchema } from './common';

/** The console's API lives under this prefix, on the console's own listener only. */
export const CONSOLE_API = '/api/console';
/** The staff session cookie (its own name, on the console's own origin). */
export const CONSOLE_SESSION_COOKIE = 'portal_console_session';

export const STAFF_ROLES = ['owner', 'support', 'billing'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const StaffRoleSchema = z.enum(STAFF_ROLES, { error: 'The role must be "owner", "support" or "billing"' });

/** POST /api/console/auth/link: 202 `{ sent: true }` whether or not the address belongs to staff. */
export const ConsoleRequestLinkBodySchema = z.strictObject({ email: EmailSchema });
export type ConsoleRequestLinkBody = z.input<typeof ConsoleRequestLinkBodySchema>;
export const ConsoleRequestLinkResponseSchema = z.object({ sent: z.literal(true) });

/**
 * The e-mail opens `{console origin}/login?link={id}`; that page asks for one click and then
 * calls POST /api/console/auth/link/{id} (a scanner opening the link uses nothing up).
 */
export const ConsoleLinkParamsSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This sign-in link is not valid'),
});

/** GET /api/console/auth/options: which ways of signing in the sign-in page offers. */
export const ConsoleAuthOptionsSchema = z.object({ google: z.boolean() });
export type ConsoleAuthOptions = z.infer<typeof ConsoleAuthOptionsSchema>;

/**
 * Where GET /api/console/auth/google/callback sends the browser when it starts no session:
 * `/login?error=…`; the sign-in page says what happened for each.
 */
export const CONSOLE_GOOGLE_ERRORS = ['google', 'google_unavailable', 'google_not_staff', 'rate_limited'] as const;
export type ConsoleGoogleError = (typeof CONSOLE_GOOGLE_ERRORS)[number];

export const StaffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: StaffRoleSchema,
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** The kinds of second factor a staff member may add: a passkey (WebAuthn) or an authenticator app (TOTP). */
export const SECOND_FACTOR_KINDS = ['passkey', 'totp'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/**
 * Where a staff session stands with its second factor (docs/decisions/070-staff-second-factor.md):
 * `ok` may do what the role allows; `verify` has a factor and must confirm it first; `enroll` has
 * none while the role requires one, and may only add one.
 */
export const SECOND_FACTOR_STATES = ['ok', 'verify', 'enroll'] as const;
export type SecondFactorState = (typeof SECOND_FACTOR_STATES)[number];
export const SecondFactorStatusSchema = z.object({
  state: z.enum(SECOND_FACTOR_STATES),
  /** The member's role requires a second factor (CONSOLE_REQUIRE_SECOND_FACTOR). */
  required: z.boolean(),
  /** The kinds the member has added (what the verification step offers, besides a recovery code). */
  methods: z.array(z.enum(SECOND_FACTOR_KINDS)),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatusSchema>;

/** The signed-in staff member: answer of the link exchange and of GET /api/console/auth/me. */
export const ConsoleMeSchema = z.object({
  staff: z.object({ id: z.string(), email: z.string(), role: StaffRoleSchema }),
  secondFactor: SecondFactorStatusSchema,
});
export type ConsoleMe = z.infer<typeof ConsoleMeSchema>;

/** GET /api/console/auth/factors: the signed-in member's own second factors. */
export const StaffFactorSchema = z.object({
  id: z.string(),
  kind: z.enum(SECOND_FACTOR_KINDS),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type StaffFactor = z.infer<typeof StaffFactorSchema>;
export const StaffFactorListSchema = z.object({
  items: z.array(StaffFactorSchema),
  /** Unused recovery codes left. */
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
});
export type StaffFactorList = z.infer<typeof StaffFactorListSchema>;

export const FACTOR_LABEL_MAX_LENGTH = 60;
const FactorLabelSchema = z
  .string({ error: 'Give this factor a name' })
  .trim()
  .min(1, 'Give this factor a name')
  .max(FACTOR_LABEL_MAX_LENGTH, `A name can be at most ${FACTOR_LABEL_MAX_LENGTH} characters`);

/**
 * A WebAuthn ceremony's JSON, as @simplewebauthn/browser makes and reads it: checked in depth by
 * @simplewebauthn/server, here only for its shape and size.
 */
const WebAuthnJsonSchema = z.looseObject({ id: z.string().max(1024), type: z.literal('public-key') });
/** Options of a ceremony, handed to the browser as the server made them. */
export const WebAuthnOptionsSchema = z.looseObject({ challenge: z.string() });

/** POST /api/console/auth/factors/passkey: the registration the browser made from the options. */
export const AddPasskeyBodySchema = z.strictObject({ label: FactorLabelSchema, response: WebAuthnJsonSchema });
export type AddPasskeyBody = z.input<typeof AddPasskeyBodySchema>;

/** POST /api/console/auth/factors/totp/options: the new secret, shown once, until a code confirms it. */
export const TotpEnrollmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrollment = z.infer<typeof TotpEnrollmentSchema>;

export const TotpCodeSchema = z
  .string({ error: 'Enter the 6-digit code from your authenticator app' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');
/** POST /api/console/auth/factors/totp: a code from the app confirms the secret. */
export const AddTotpBodySchema = z.strictObject({ label: FactorLabelSchema, code: TotpCodeSchema });
export type AddTotpBody = z.input<typeof AddTotpBodySchema>;

/** What adding a factor answers: the factor, and the recovery codes when these are new (shown once). */
export const AddFactorResponseSchema = z.object({
  factor: StaffFactorSchema,
  recoveryCodes: z.array(z.string()).nullable(),
});
export type AddFactorResponse = z.infer<typeof AddFactorResponseSchema>;
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const FactorParamsSchema = z.strictObject({ factorId: z.uuid('This factor id is not valid') });

/** POST /api/console/auth/second-factor/passkey: the browser's answer to the options' challenge. */
export const CheckPasskeyBodySchema = z.strictObject({ response: WebAuthnJsonSchema });
export type CheckPasskeyBody = z.input<typeof CheckPasskeyBodySchema>;
/** POST /api/console/auth/second-factor/code: a code of the authenticator app, or a recovery code. */
export const CheckCodeBodySchema = z.strictObject({
  code: z
    .string({ error: 'Enter a code' })
    .trim()
    .min(6, 'Enter the 6-digit code or a recovery code')
    .max(32, 'Enter the 6-digit code or a recovery code'),
});
export type CheckCodeBody = z.input<typeof CheckCodeBodySchema>;

/** Owners manage staff: GET/POST /api/console/staff, PATCH/DELETE /api/console/staff/{id}. */
export const StaffListSchema = z.object({ items: z.array(StaffMemberSchema) });
export const AddStaffBodySchema = z.strictObject({ email: EmailSchema, role: StaffRoleSchema, reason: ReasonSchema });
export type AddStaffBody = z.input<typeof AddStaffBodySchema>;
export const UpdateStaffBodySchema = z.strictObject({ role: StaffRoleSchema, reason: ReasonSchema });
export type UpdateStaffBody = z.input<typeof UpdateStaffBodySchema>;
/** DELETE /api/console/staff/{id} and POST …/{id}/reset-factors: why. */
export const StaffActionBodySchema = z.strictObject({ reason: ReasonSchema });
export type StaffActionBody = z.input<typeof StaffActionBodySchema>;
export const StaffParamsSchema = z.strictObject({ id: z.uuid('This staff id is not valid') });
export const StaffResponseSchema = z.object({ staff: StaffMemberSchema });
