import { and, asc, count, desc, eq, getTableColumns, gt, isNull, lt, sql } from 'drizzle-orm';
import type { StaffRole } from '@portal/contract';
import type { Tx } from '../db/client';
import { staff, staffAudit, staffLoginLinks, staffSessions, users, type loginLinks } from '../db/schema/index';
import { linksRepositoryFor } from '../modules/auth/auth.repository';

export type StaffRow = typeof staff.$inferSelect;
export type StaffAuditRow = typeof staffAudit.$inferSelect;

/**
 * Staff sign-in links: the customers' link queries on the staff table (same columns, see
 * db/schema/staff.ts), so hashing, voiding and single-use redemption are one implementation.
 */
export const staffLinksRepository = linksRepositoryFor(staffLoginLinks as unknown as typeof loginLinks);

/** Staff, their sessions and their audit log: the only place these queries are written. */
export const staffRepository = {
  async list(db: Tx): Promise<StaffRow[]> {
    return db.select().from(staff).where(isNull(staff.disabledAt)).orderBy(asc(staff.email));
  },
  async count(db: Tx): Promise<number> {
    const [row] = await db.select({ n: count() }).from(staff).where(isNull(staff.disabledAt));
    return row?.n ?? 0;
  },
  /** Serialises staff changes (the last owner is counted under it): a transaction-scoped advisory lock. */
  async lockStaffTable(tx: Tx): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(72542)`);
  },
  async countOwners(db: Tx): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(staff)
      .where(and(eq(staff.role, 'owner'), isNull(staff.disabledAt)));
    return row?.n ?? 0;
  },
  /** An active staff member by address (any case). */
  async findActiveByEmail(db: Tx, email: string): Promise<StaffRow | undefined> {
    const [row] = await db
      .select()
      .from(staff)
      .where(and(sql`lower(${staff.email}) = ${email.toLowerCase()}`, isNull(staff.disabledAt)))
      .limit(1);
    return row;
  },
  async findByEmail(db: Tx, email: string): Promise<StaffRow | undefined> {
    const [row] = await db
      .select()
      .from(staff)
      .where(sql`lower(${staff.email}) = ${email.toLowerCase()}`)
      .limit(1);
    return row;
  },
  async findActiveById(db: Tx, id: string): Promise<StaffRow | undefined> {
    const [row] = await db
      .select()
      .from(staff)
      .where(and(eq(staff.id, id), isNull(staff.disabledAt)))
      .limit(1);
    return row;
  },
  async insert(tx: Tx, email: string, role: StaffRole, now: Date): Promise<StaffRow> {
    const [row] = await tx.insert(staff).values({ email: email.toLowerCase(), role, createdAt: now }).returning();
    return row!;
  },
  /** Brings back a removed member with a new role. */
  async enable(tx: Tx, id: string, role: StaffRole): Promise<StaffRow> {
    const [row] = await tx.update(staff).set({ role, disabledAt: null }).where(eq(staff.id, id)).returning();
    return row!;
  },
  async setRole(tx: Tx, id: string, role: StaffRole): Promise<StaffRow> {
    const [row] = await tx.update(staff).set({ role }).where(eq(staff.id, id)).returning();
    return row!;
  },
  /** Removes a member: their sessions end and their open sign-in links stop working. */
  async disable(tx: Tx, id: string, now: Date): Promise<void> {
    const [row] = await tx.update(staff).set({ disabledAt: now }).where(eq(staff.id, id)).returning({ email: staff.email });
    await tx.delete(staffSessions).where(eq(staffSessions.staffId, id));
    if (row) await staffLinksRepository.voidOpen(tx, row.email, now);
  },
  async signedIn(tx: Tx, id: string, now: Date): Promise<void> {
    await tx.update(staff).set({ lastSignInAt: now }).where(eq(staff.id, id));
  },

  async insertSession(tx: Tx, values: typeof staffSessions.$inferInsert): Promise<void> {
    await tx.insert(staffSessions).values(values);
  },
  /** A usable session and its (active) staff member. */
  async findSession(db: Tx, idHash: string, now: Date, idleSince: Date) {
    const [row] = await db
      .select({ session: staffSessions, staff })
      .from(staffSessions)
      .innerJoin(staff, eq(staff.id, staffSessions.staffId))
      .where(
        and(
          eq(staffSessions.idHash, idHash),
          gt(staffSessions.expiresAt, now),
          gt(staffSessions.lastSeenAt, idleSince),
          isNull(staff.disabledAt),
        ),
      )
      .limit(1);
    return row;
  },
  async touchSession(db: Tx, idHash: string, now: Date): Promise<void> {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.idHash, idHash));
  },
  async deleteSession(db: Tx, idHash: string): Promise<void> {
    await db.delete(staffSessions).where(eq(staffSessions.idHash, idHash));
  },
  async deleteExpiredSessions(db: Tx, now: Date, idleSince: Date): Promise<void> {
    await db.delete(staffSessions).where(sql`${lt(staffSessions.expiresAt, now)} or ${lt(staffSessions.lastSeenAt, idleSince)}`);
  },

  async insertAudit(tx: Tx, values: typeof staffAudit.$inferInsert): Promise<void> {
    await tx.insert(staffAudit).values(values);
  },
  async listAudit(db: Tx, opts: { userId?: string | undefined; limit: number; offset: number }) {
    const where = opts.userId ? eq(staffAudit.userId, opts.userId) : undefined;
    const [rows, [total]] = await Promise.all([
      db
        .select({
          ...getTableColumns(staffAudit),
          // The customer the action was about, named as the console names them elsewhere.
          customer: { email: users.email, fname: users.fname, lname: users.lname },
        })
        .from(staffAudit)
        .leftJoin(users, eq(users.id, staffAudit.userId))
        .where(where)
        .orderBy(desc(staffAudit.at), desc(staffAudit.id))
        .limit(opts.limit)
        .offset(opts.offset),
      db.select({ n: count() }).from(staffAudit).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },
};
