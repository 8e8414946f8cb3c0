import { z } from 'zod';
import { isStorableText, isVisibleText, STORABLE_TEXT_MESSAGE, VISIBLE_TEXT_MESSAGE } from './common';

/**
 * Personal API tokens (docs/decisions/090-api-tokens.md). A token acts for its owner on the routes
 * its scopes open, and on nothing else; which route needs which scope is the server's one table
 * (apps/server/src/plugins/token-scopes.ts).
 */
export const API_TOKEN_SCOPES = ['licenses:read', 'nodes:write', 'downloads:read', 'billing:read'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const ApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES, {
  error: `A scope is one of ${API_TOKEN_SCOPES.join(', ')}`,
});

/** What each scope allows, as the profile page and the docs say it. */
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, { label: string; description: string }> = {
  'licenses:read': { label: 'Read licenses', description: 'List licenses and their nodes, download license files' },
  'nodes:write': { label: 'Release nodes', description: 'Release the nodes of retired machines' },
  'downloads:read': { label: 'Download the ISO', description: 'Get the newest ISO, its download link and SHA-256' },
  'billing:read': { label: 'Read billing', description: 'List subscriptions and invoices (never cards)' },
};

/** Every secret starts with this, so secret scanners (and people) recognise a leaked one. */
export const API_TOKEN_PREFIX = 'pat_';
/** The most tokens (not revoked, expired ones included) an account holds at once. */
export const API_TOKEN_LIMIT = 20;
export const API_TOKEN_NAME_MAX_LENGTH = 60;
/** The lifetimes offered; null: the token never expires. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const CreateApiTokenBodySchema = z.strictObject({
  name: z
    .string({ error: 'Enter a name for the token' })
    .trim()
    .min(1, 'Enter a name for the token')
    .max(API_TOKEN_NAME_MAX_LENGTH, `The name can be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(isVisibleText, VISIBLE_TEXT_MESSAGE),
  scopes: z
    .array(ApiTokenScopeSchema, { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .refine((s) => new Set(s).size === s.length, 'Each scope can be chosen once'),
  expiresInDays: z.union([z.literal(30), z.literal(90), z.literal(365), z.null()], {
    error: 'The token expires in 30, 90 or 365 days, or never (null)',
  }),
});
export type CreateApiTokenBody = z.input<typeof CreateApiTokenBodySchema>;

export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(ApiTokenScopeSchema),
  /** The secret's first characters (`pat_` and 4 more), to tell tokens apart; never enough to use. */
  hint: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** To the minute; null until first used. */
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const ApiTokenListSchema = z.object({ items: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** The answer of creation: the only time the secret is shown. */
export const CreatedApiTokenSchema = z.object({ token: ApiTokenSchema, secret: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

export const ApiTokenParamsSchema = z.strictObject({
  id: z.uuid({ error: 'This token id is not valid' }),
});
