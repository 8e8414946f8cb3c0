import { z } from 'zod';
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

/** The signed-in staff member: answer of the link exchange and of GET /api/console/auth/me. */
export const ConsoleMeSchema = z.object({
  staff: z.object({ id: z.string(), email: z.string(), role: StaffRoleSchema }),
});
export type ConsoleMe = z.infer<typeof ConsoleMeSchema>;

/** Owners manage staff: GET/POST /api/console/staff, PATCH/DELETE /api/console/staff/{id}. */
export const StaffListSchema = z.object({ items: z.array(StaffMemberSchema) });
export const AddStaffBodySchema = z.strictObject({ email: EmailSchema, role: StaffRoleSchema });
export type AddStaffBody = z.input<typeof AddStaffBodySchema>;
export const UpdateStaffBodySchema = z.strictObject({ role: StaffRoleSchema });
export type UpdateStaffBody = z.input<typeof UpdateStaffBodySchema>;
export const StaffParamsSchema = z.strictObject({ id: z.uuid('This staff id is not valid') });
export const StaffResponseSchema = z.object({ staff: StaffMemberSchema });
