import { displayName, NO_NAME, type StaffAuditAction, type StaffMember, type StaffRole } from '@portal/contract';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { staffRepository as repo, type StaffRow } from './staff.repository';
import { staffTokensRepository } from './staff-tokens.repository';

/**
 * Who did a staff action: the signed-in member, the vendor's command line, or a staff API token
 * (`tokenId`; `email` then names the token: staff-tokens.service.ts).
 */
export type StaffActor = { id: string | null; email: string; tokenId?: string | null };
export const CLI_ACTOR: StaffActor = { id: null, email: 'vendor-cli' };

export const toStaffMember = (s: StaffRow): StaffMember => ({
  id: s.id,
  email: s.email,
  role: s.role,
  createdAt: s.createdAt.toISOString(),
  lastSignInAt: s.lastSignInAt?.toISOString() ?? null,
});

/** What the staff audit log records of one action (besides who and when). */
export type StaffAuditInput = {
  action: StaffAuditAction;
  reason: string;
  userId?: string | null | undefined;
  subject?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
};

/**
 * The vendor's staff: who may use the console with which role (owners manage them in the console,
 * the vendor in the CLI), and the staff audit log every action writes.
 */
export function createStaffService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function record(tx: Tx, actor: StaffActor, input: StaffAuditInput): Promise<void> {
    await repo.insertAudit(tx, {
      staffId: actor.id,
      staffEmail: actor.email,
      tokenId: actor.tokenId ?? null,
      action: input.action,
      reason: input.reason,
      userId: input.userId ?? null,
      subject: input.subject ?? null,
      data: input.data ?? {},
      at: clock.now(),
    });
  }

  async function list(): Promise<StaffMember[]> {
    return (await repo.list(db)).map(toStaffMember);
  }

  /**
   * Adds a member (or brings a removed one back) with `role`; an active member is a 409. Like
   * every staff action, each change here states why and is audited in its own transaction.
   */
  async function add(email: string, role: StaffRole, actor: StaffActor, reason: string): Promise<StaffMember> {
    return db.transaction(async (tx) => {
      await repo.lockStaffTable(tx);
      const existing = await repo.findByEmail(tx, email);
      if (existing && !existing.disabledAt) {
        throw new AppError('CONFLICT', `${existing.email} is already on the staff (as ${existing.role})`);
      }
      const row = existing ? await repo.enable(tx, existing.id, role) : await repo.insert(tx, email, role, clock.now());
      await record(tx, actor, { action: 'staff_added', reason, subject: row.email, data: { role } });
      return toStaffMember(row);
    });
  }

  /** The one check both role changes and removals make: an install always keeps an owner. */
  async function lockTarget(tx: Tx, id: string, losesOwner: (row: StaffRow) => boolean): Promise<StaffRow> {
    await repo.lockStaffTable(tx);
    const row = await repo.findActiveById(tx, id);
    if (!row) throw new AppError('NOT_FOUND', 'This staff member was not found');
    if (losesOwner(row) && (await repo.countOwners(tx)) <= 1) {
      throw new AppError('CONFLICT', 'The last owner cannot be removed or lose the owner role: make someone else an owner first');
    }
    return row;
  }

  async function setRole(id: string, role: StaffRole, actor: StaffActor, reason: string): Promise<StaffMember> {
    return db.transaction(async (tx) => {
      const row = await lockTarget(tx, id, (r) => r.role === 'owner' && role !== 'owner');
      if (row.role === role) return toStaffMember(row);
      const updated = await repo.setRole(tx, id, role);
      // Only owners hold staff API tokens (docs/decisions/097-staff-tokens-and-their-creator.md).
      const revoked = row.role === 'owner' ? await staffTokensRepository.revokeCreatedBy(tx, id, clock.now()) : [];
      await record(tx, actor, {
        action: 'staff_role_changed',
        reason,
        subject: row.email,
        data: { from: row.role, to: role, ...tokensRevoked(revoked) },
      });
      return toStaffMember(updated);
    });
  }

  /** Removes a member: their sessions and open sign-in links end at once; the row stays for the audit log. */
  async function remove(id: string, actor: StaffActor, reason: string): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await lockTarget(tx, id, (r) => r.role === 'owner');
      await repo.disable(tx, id, clock.now());
      const revoked = await staffTokensRepository.revokeCreatedBy(tx, id, clock.now());
      await record(tx, actor, {
        action: 'staff_removed',
        reason,
        subject: row.email,
        data: { role: row.role, ...tokensRevoked(revoked) },
      });
    });
  }

  async function findActiveByEmail(email: string): Promise<StaffRow | undefined> {
    return repo.findActiveByEmail(db, email);
  }

  /** A fresh install's first owner (CONSOLE_BOOTSTRAP_EMAIL): only while there is no staff at all. */
  async function bootstrap(email: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      await repo.lockStaffTable(tx);
      if ((await repo.count(tx)) > 0) return false;
      await repo.insert(tx, email, 'owner', clock.now());
      await record(tx, CLI_ACTOR, {
        action: 'staff_added',
        reason: 'The first owner of a fresh install, named by CONSOLE_BOOTSTRAP_EMAIL',
        subject: email,
        data: { role: 'owner' },
      });
      return true;
    });
  }

  async function listAudit(opts: { userId?: string | undefined; page: number; size: number }) {
    const { rows, total } = await repo.listAudit(db, {
      userId: opts.userId,
      limit: opts.size,
      offset: (opts.page - 1) * opts.size,
    });
    return { items: rows.map(toAuditEntry), page: opts.page, size: opts.size, total };
  }

  return { record, list, add, setRole, remove, findActiveByEmail, bootstrap, listAudit };
}
export type StaffService = ReturnType<typeof createStaffService>;

/** The audit entry's note of the staff API tokens a change revoked (none: nothing added). */
const tokensRevoked = (rows: ReadonlyArray<{ id: string; name: string }>) =>
  rows.length === 0 ? {} : { tokensRevoked: rows.map((t) => ({ id: t.id, name: t.name })) };

export const toAuditEntry = (r: Awaited<ReturnType<typeof repo.listAudit>>['rows'][number]) => ({
  id: r.id,
  at: r.at.toISOString(),
  staffEmail: r.staffEmail,
  action: r.action,
  reason: r.reason,
  userId: r.userId,
  customer: r.customer
    ? { email: r.customer.email, name: displayName(r.customer) === NO_NAME ? null : displayName(r.customer) }
    : null,
  subject: r.subject,
  data: r.data,
});
