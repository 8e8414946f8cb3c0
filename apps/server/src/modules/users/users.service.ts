import { eq } from 'drizzle-orm';
import type { SessionUser } from '@portal/contract';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import type { UserRow } from '../auth/sessions';

export const toSessionUser = (u: UserRow): SessionUser => ({
  email: u.email,
  fname: u.fname,
  lname: u.lname,
  onboarded: u.onboarded,
  picture: u.picture,
  company: u.company,
});

export type ProfileFields = { fname: string; lname: string; company?: string | undefined };

export function createUserService(deps: { db: Db; clock: Clock; audit: AuditService }) {
  async function completeOnboarding(userId: string, fields: ProfileFields) {
    return deps.db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({ fname: fields.fname, lname: fields.lname, company: fields.company || null, onboarded: true })
        .where(eq(users.id, userId))
        .returning();
      if (!user) throw notFound('The account');
      await deps.audit.record(tx, { userId, actor: user.email, action: 'onboarded', summary: 'Completed onboarding' });
      return user;
    });
  }

  /**
   * PATCH semantics: an omitted company keeps the stored one, an empty one clears it. Saving the
   * same values again changes nothing and writes no activity entry.
   */
  async function updateProfile(userId: string, fields: ProfileFields) {
    return deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
      if (!current) throw notFound('The account');
      const next = {
        fname: fields.fname,
        lname: fields.lname,
        company: fields.company === undefined ? current.company : fields.company || null,
      };
      const changed = (['fname', 'lname', 'company'] as const).filter((k) => next[k] !== current[k]);
      if (changed.length === 0) return current;
      const [user] = await tx.update(users).set(next).where(eq(users.id, userId)).returning();
      if (!user) throw notFound('The account');
      await deps.audit.record(tx, {
        userId,
        actor: user.email,
        action: 'profile_updated',
        subjectType: 'user',
        subjectId: userId,
        summary: `Updated the profile (${changed.map((k) => LABELS[k]).join(', ')})`,
      });
      return user;
    });
  }

  return { completeOnboarding, updateProfile };
}
export type UserService = ReturnType<typeof createUserService>;

const LABELS = { fname: 'first name', lname: 'last name', company: 'company' } as const;
