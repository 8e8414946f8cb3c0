import {
  STAFF_TOKEN_LIMIT,
  STAFF_TOKEN_PREFIX,
  type CreateStaffTokenBody,
  type CreatedStaffToken,
  type StaffRole,
  type StaffToken,
} from '@portal/contract';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import { AppError } from '../lib/errors';
import { expiryOf, isSecretWith, isUsable, newSecretWith, startOfMinute } from '../modules/api-tokens/api-token-fns';
import { staffRepository } from './staff.repository';
import type { StaffActor, StaffService } from './staff.service';
import { staffTokensRepository as repo, type StaffTokenRow } from './staff-tokens.repository';

/** A request's staff token, once authenticated: its name and role (docs/decisions/096-staff-token-principal.md). */
export type StaffTokenPrincipal = { id: string; name: string; role: StaffRole; lastUsedAt: Date | null };

/** How the staff audit log names an action done through a token: by the token's name. */
export const tokenActor = (t: Pick<StaffTokenPrincipal, 'id' | 'name'>): StaffActor => ({
  id: null,
  email: `API token "${t.name}"`,
  tokenId: t.id,
});

const toStaffToken = (t: StaffTokenRow): StaffToken => ({
  id: t.id,
  name: t.name,
  role: t.role,
  hint: t.hint,
  createdBy: t.createdByEmail,
  createdAt: t.createdAt.toISOString(),
  expiresAt: t.expiresAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

/**
 * Staff API tokens: created by owners in the console, shown once, stored as their SHA-256, always
 * with an expiry; the customers' token helpers (modules/api-tokens/api-token-fns.ts) with `stk_`.
 */
export function createStaffTokenService(deps: { db: Db; clock: Clock; staff: Pick<StaffService, 'record'> }) {
  const { db, clock, staff } = deps;

  async function list(): Promise<StaffToken[]> {
    return (await repo.list(db)).map(toStaffToken);
  }

  async function create(actor: StaffActor, body: CreateStaffTokenBody): Promise<CreatedStaffToken> {
    const now = clock.now();
    const secret = newSecretWith(STAFF_TOKEN_PREFIX);
    const row = await db.transaction(async (tx) => {
      // Serialised with the staff's changes: a member removed (or no longer an owner) meanwhile creates nothing.
      await staffRepository.lockStaffTable(tx);
      const creator = actor.id ? await staffRepository.findActiveById(tx, actor.id) : undefined;
      if (!creator || creator.role !== 'owner') throw new AppError('FORBIDDEN', 'Only owners create staff API tokens');
      if ((await repo.countOpen(tx)) >= STAFF_TOKEN_LIMIT) {
        throw new AppError(
          'CONFLICT',
          `There are already ${STAFF_TOKEN_LIMIT} staff API tokens, the most an install holds. Revoke one that is no longer used first.`,
        );
      }
      const inserted = await repo.insert(tx, {
        name: body.name.trim(),
        role: body.role,
        tokenHash: sha256(secret),
        hint: secret.slice(0, STAFF_TOKEN_PREFIX.length + 4),
        createdBy: creator.id,
        createdByEmail: creator.email,
        createdAt: now,
        expiresAt: expiryOf(now, body.expiresInDays)!,
      });
      await staff.record(tx, actor, {
        action: 'staff_token_created',
        reason: body.reason,
        subject: inserted.name,
        data: { tokenId: inserted.id, role: inserted.role, expiresAt: inserted.expiresAt.toISOString() },
      });
      return inserted;
    });
    return { token: toStaffToken(row), secret };
  }

  async function revoke(actor: StaffActor, id: string, reason: string): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await repo.revoke(tx, id, clock.now());
      if (!row) throw new AppError('NOT_FOUND', 'This API token was not found. It may have been revoked already.');
      await staff.record(tx, actor, {
        action: 'staff_token_revoked',
        reason,
        subject: row.name,
        data: { tokenId: row.id, role: row.role },
      });
    });
  }

  /**
   * The token a secret belongs to, when it may be used now: not revoked, not expired, and its
   * creator still an active owner (their removal revokes it too; this holds if a row escaped that).
   */
  async function authenticate(secret: string): Promise<StaffTokenPrincipal | null> {
    if (!isSecretWith(STAFF_TOKEN_PREFIX, secret)) return null;
    const row = await repo.findByHash(db, sha256(secret));
    if (!row || !isUsable(row.token, clock.now())) return null;
    const { token, creator } = row;
    if (!creator || creator.disabledAt || creator.role !== 'owner') return null;
    return { id: token.id, name: token.name, role: token.role, lastUsedAt: token.lastUsedAt };
  }

  /** last_used_at to the minute: one write a minute per token at most. */
  async function recordUse(token: StaffTokenPrincipal): Promise<void> {
    const minute = startOfMinute(clock.now());
    if (token.lastUsedAt && token.lastUsedAt >= minute) return;
    await repo.touch(db, token.id, minute);
  }

  return { list, create, revoke, authenticate, recordUse };
}
export type StaffTokenService = ReturnType<typeof createStaffTokenService>;
