import {
  API_TOKEN_LIMIT,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenBody,
  type CreatedApiToken,
} from '@portal/contract';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import type { UserRow } from '../users/users.repository';
import {
  expiryOf,
  hintOf,
  isTokenSecret,
  isUsable,
  newTokenSecret,
  startOfHour,
  startOfMinute,
  useToRecord,
} from './api-token-fns';
import { apiTokensRepository as repo, type ApiTokenRow } from './api-tokens.repository';

/** A request's token, once authenticated: who it acts for and what it may do. */
export type TokenContext = {
  id: string;
  name: string;
  scopes: readonly ApiTokenScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  user: UserRow;
};

const toApiToken = (t: ApiTokenRow): ApiToken => ({
  id: t.id,
  name: t.name,
  scopes: t.scopes,
  hint: t.hint,
  createdAt: t.createdAt.toISOString(),
  expiresAt: t.expiresAt?.toISOString() ?? null,
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

export const tokenNotFound = () => new AppError('NOT_FOUND', 'This API token was not found. It may have been revoked already.');

/** Personal API tokens: created on the profile page, shown once, stored as their SHA-256. */
export function createApiTokenService(deps: { db: Db; clock: Clock; audit: Pick<AuditService, 'record'> }) {
  const { db, clock, audit } = deps;

  async function list(userId: string): Promise<ApiToken[]> {
    return (await repo.listForUser(db, userId)).map(toApiToken);
  }

  async function create(userId: string, actor: string, body: CreateApiTokenBody): Promise<CreatedApiToken> {
    const now = clock.now();
    const secret = newTokenSecret();
    // Scopes in the table's order, so two tokens with the same scopes read the same.
    const scopes = [...new Set(body.scopes)].sort();
    const row = await db.transaction(async (tx) => {
      if (!(await repo.lockUser(tx, userId))) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
      if ((await repo.countForUser(tx, userId)) >= API_TOKEN_LIMIT) {
        throw new AppError(
          'CONFLICT',
          `You already have ${API_TOKEN_LIMIT} API tokens, the most an account can hold. Revoke one you no longer use, then create this one.`,
        );
      }
      const inserted = await repo.insert(tx, {
        userId,
        name: body.name.trim(),
        scopes,
        tokenHash: sha256(secret),
        hint: hintOf(secret),
        createdAt: now,
        expiresAt: expiryOf(now, body.expiresInDays),
      });
      await audit.record(tx, { type: 'api_token_created', userId, actor, token: inserted });
      return inserted;
    });
    return { token: toApiToken(row), secret };
  }

  async function revoke(userId: string, actor: string, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await repo.revoke(tx, userId, id, clock.now());
      if (!row) throw tokenNotFound();
      await audit.record(tx, { type: 'api_token_revoked', userId, actor, token: row });
    });
  }

  /** The token a secret belongs to, when it may be used now; null for anything else. */
  async function authenticate(secret: string): Promise<TokenContext | null> {
    if (!isTokenSecret(secret)) return null;
    const row = await repo.findByHash(db, sha256(secret));
    if (!row || !isUsable(row.token, clock.now())) return null;
    const { token, user } = row;
    return {
      id: token.id,
      name: token.name,
      scopes: token.scopes,
      createdAt: token.createdAt,
      lastUsedAt: token.lastUsedAt,
      user,
    };
  }

  /**
   * Notes a use: last_used_at to the minute (one write a minute per token at most, decided from
   * the row just read), and the first use in an hour in the customer's activity log.
   */
  async function recordUse(token: TokenContext, operation: string): Promise<void> {
    const now = clock.now();
    const what = useToRecord(token.lastUsedAt, now);
    if (what === 'nothing') return;
    const minute = startOfMinute(now);
    if (what === 'minute') {
      await repo.touch(db, token.id, minute, minute);
      return;
    }
    await db.transaction(async (tx) => {
      // Only the use that moves last_used_at into this hour writes the entry, whatever runs beside it.
      if (!(await repo.touch(tx, token.id, minute, startOfHour(now)))) return;
      await audit.record(tx, { type: 'api_token_used', userId: token.user.id, actor: token.user.email, token, operation });
    });
  }

  return { list, create, revoke, authenticate, recordUse };
}
export type ApiTokenService = ReturnType<typeof createApiTokenService>;
