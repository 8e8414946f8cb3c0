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
  async function saveProfile(userId: string, fields: ProfileFields, action: 'onboarded' | 'profile_updated') {
    return deps.db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({ fname: fields.fname, lname: fields.lname, company: fields.company || null, onboarded: true })
        .where(eq(users.id, userId))
        .returning();
      if (!user) throw notFound('The account');
      await deps.audit.record(tx, {
        userId,
        actor: user.email,
        action,
        summary: action === 'onboarded' ? 'Completed onboarding' : 'Updated the profile',
      });
      return user;
    });
  }
  return {
    completeOnboarding: (userId: string, fields: ProfileFields) => saveProfile(userId, fields, 'onboarded'),
    updateProfile: (userId: string, fields: ProfileFields) => saveProfile(userId, fields, 'profile_updated'),
  };
}
export type UserService = ReturnType<typeof createUserService>;
