import { and, asc, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { staffChallenges, staffFactors, staffRecoveryCodes, staffSessionFactors, staffSessions } from '../db/schema/index';

export type StaffFactorRow = typeof staffFactors.$inferSelect;
export type ChallengeKind = (typeof staffChallenges.$inferSelect)['kind'];

/** Staff second factors, recovery codes, ceremonies and confirmed sessions: the only place these queries are written. */
export const staffFactorsRepository = {
  async list(db: Tx, staffId: string): Promise<StaffFactorRow[]> {
    return db.select().from(staffFactors).where(eq(staffFactors.staffId, staffId)).orderBy(asc(staffFactors.createdAt));
  },
  async find(db: Tx, staffId: string, id: string): Promise<StaffFactorRow | undefined> {
    const [row] = await db
      .select()
      .from(staffFactors)
      .where(and(eq(staffFactors.staffId, staffId), eq(staffFactors.id, id)))
      .limit(1);
    return row;
  },
  async findPasskey(db: Tx, staffId: string, credentialId: string): Promise<StaffFactorRow | undefined> {
    const [row] = await db
      .select()
      .from(staffFactors)
      .where(and(eq(staffFactors.staffId, staffId), eq(staffFactors.credentialId, credentialId)))
      .limit(1);
    return row;
  },
  async insert(tx: Tx, values: typeof staffFactors.$inferInsert): Promise<StaffFactorRow> {
    const [row] = await tx.insert(staffFactors).values(values).returning();
    return row!;
  },
  async delete(tx: Tx, staffId: string, id: string): Promise<void> {
    await tx.delete(staffFactors).where(and(eq(staffFactors.staffId, staffId), eq(staffFactors.id, id)));
  },
  /**
   * Moves a TOTP factor's last accepted step to `step` only if it is later: the one statement
   * that decides, so a code replayed at once (or twice in parallel) is accepted at most once.
   */
  async acceptTotpStep(tx: Tx, id: string, step: number, now: Date): Promise<boolean> {
    const rows = await tx
      .update(staffFactors)
      .set({ totpLastStep: step, lastUsedAt: now })
      .where(and(eq(staffFactors.id, id), or(isNull(staffFactors.totpLastStep), lt(staffFactors.totpLastStep, step))))
      .returning({ id: staffFactors.id });
    return rows.length === 1;
  },
  async passkeyUsed(tx: Tx, id: string, signCount: number, now: Date): Promise<void> {
    await tx.update(staffFactors).set({ signCount, lastUsedAt: now }).where(eq(staffFactors.id, id));
  },

  async replaceRecoveryCodes(tx: Tx, staffId: string, hashes: string[], now: Date): Promise<void> {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    if (hashes.length > 0) {
      await tx.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ staffId, codeHash, createdAt: now })));
    }
  },
  /** Uses up an unused recovery code: true when there was one. */
  async useRecoveryCode(tx: Tx, staffId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await tx
      .update(staffRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffRecoveryCodes.staffId, staffId),
          eq(staffRecoveryCodes.codeHash, codeHash),
          isNull(staffRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: staffRecoveryCodes.id });
    return rows.length > 0;
  },
  async recoveryCodesLeft(db: Tx, staffId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(staffRecoveryCodes)
      .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  },

  /** Every factor and recovery code of a member, and every session (an owner's reset). */
  async deleteAllOf(tx: Tx, staffId: string): Promise<void> {
    await tx.delete(staffFactors).where(eq(staffFactors.staffId, staffId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    await tx.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
  },

  /** The session's second factor: confirmed or not, and the kinds of factor the member has. */
  async sessionState(db: Tx, idHash: string, staffId: string) {
    const [verified, kinds] = await Promise.all([
      db
        .select({ at: staffSessionFactors.verifiedAt })
        .from(staffSessionFactors)
        .where(eq(staffSessionFactors.sessionIdHash, idHash))
        .limit(1),
      db.selectDistinct({ kind: staffFactors.kind }).from(staffFactors).where(eq(staffFactors.staffId, staffId)),
    ]);
    return { verified: verified.length > 0, kinds: kinds.map((k) => k.kind).sort() };
  },
  async markVerified(tx: Tx, idHash: string, method: string, now: Date): Promise<void> {
    await tx
      .insert(staffSessionFactors)
      .values({ sessionIdHash: idHash, method, verifiedAt: now })
      .onConflictDoUpdate({ target: staffSessionFactors.sessionIdHash, set: { method, verifiedAt: now } });
  },

  async putChallenge(tx: Tx, idHash: string, kind: ChallengeKind, value: string, expiresAt: Date): Promise<void> {
    await tx
      .insert(staffChallenges)
      .values({ sessionIdHash: idHash, kind, value, expiresAt })
      .onConflictDoUpdate({ target: [staffChallenges.sessionIdHash, staffChallenges.kind], set: { value, expiresAt } });
  },
  /** The session's unexpired challenge of `kind`, taken: it cannot be answered twice. */
  async takeChallenge(tx: Tx, idHash: string, kind: ChallengeKind, now: Date): Promise<string | undefined> {
    const rows = await tx
      .delete(staffChallenges)
      .where(and(eq(staffChallenges.sessionIdHash, idHash), eq(staffChallenges.kind, kind)))
      .returning();
    const row = rows[0];
    return row && row.expiresAt > now ? row.value : undefined;
  },
  /** The session's unexpired challenge of `kind`, left in place (a TOTP secret survives a mistyped code). */
  async peekChallenge(db: Tx, idHash: string, kind: ChallengeKind, now: Date): Promise<string | undefined> {
    const [row] = await db
      .select({ value: staffChallenges.value })
      .from(staffChallenges)
      .where(and(eq(staffChallenges.sessionIdHash, idHash), eq(staffChallenges.kind, kind), gt(staffChallenges.expiresAt, now)))
      .limit(1);
    return row?.value;
  },
  async deleteExpiredChallenges(db: Tx, now: Date): Promise<void> {
    await db.delete(staffChallenges).where(sql`${staffChallenges.expiresAt} < ${now}`);
  },
};
