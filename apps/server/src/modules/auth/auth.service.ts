import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_LANDING, LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import type { Db } from '../../db/client';
import { loginLinks, users } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { randomSecret, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import type { OutboxService } from '../outbox/outbox.service';
import type { SessionService, UserRow } from './sessions';
import { signInEmail } from './sign-in-email';

export type AuthDeps = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: string;
  brandName: string;
  sessions: SessionService;
  outbox: OutboxService;
  audit: AuditService;
};

/** Sign-up and sign-in by e-mailed link are one flow: the first redeemed link creates the user. */
export function createAuthService(deps: AuthDeps) {
  const { db, clock } = deps;

  async function requestLink(email: string, to: string | undefined) {
    const secret = randomSecret();
    const now = clock.now();
    const url = new URL('/login', deps.publicUrl);
    url.searchParams.set('link', secret);
    if (to) url.searchParams.set('to', to);
    await db.transaction(async (tx) => {
      // A newer link voids the older ones of the same address.
      await tx
        .update(loginLinks)
        .set({ voidedAt: now })
        .where(and(eq(loginLinks.email, email), isNull(loginLinks.usedAt), isNull(loginLinks.voidedAt)));
      await tx.insert(loginLinks).values({
        tokenHash: sha256(secret),
        email,
        redirectTo: to ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + LOGIN_LINK_TTL_MINUTES * 60_000),
      });
      await deps.outbox.enqueue(tx, 'email', {
        to: email,
        ...signInEmail({ url: url.toString(), minutes: LOGIN_LINK_TTL_MINUTES }),
        logHint: `Sign-in link for ${email}: ${url.toString()}`,
      });
    });
    void deps.outbox.kick();
  }

  /** Redeems a link exactly once, even under parallel redemptions, and starts a session. */
  async function redeemLink(secret: string): Promise<{ user: UserRow; to: string; sessionSecret: string }> {
    const tokenHash = sha256(secret);
    const now = clock.now();
    return db.transaction(async (tx) => {
      const [link] = await tx
        .update(loginLinks)
        .set({ usedAt: now })
        .where(
          and(
            eq(loginLinks.tokenHash, tokenHash),
            isNull(loginLinks.usedAt),
            isNull(loginLinks.voidedAt),
            sql`${loginLinks.expiresAt} > ${now.toISOString()}`,
          ),
        )
        .returning();
      if (!link) {
        const [known] = await tx.select().from(loginLinks).where(eq(loginLinks.tokenHash, tokenHash)).limit(1);
        // A link that just stopped being usable (a parallel redemption, the expiry) is reported as such.
        throw whyUnusable(known, now) ?? new AppError('LINK_USED', 'This sign-in link was already used. Request a new one.');
      }
      await tx.insert(users).values({ email: link.email, createdAt: now }).onConflictDoNothing();
      const [user] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${link.email}`)
        .limit(1);
      if (!user) throw new AppError('INTERNAL', 'The account could not be loaded');
      const sessionSecret = await deps.sessions.create(tx, user.id, 'link');
      await deps.audit.record(tx, {
        userId: user.id,
        actor: user.email,
        action: 'signed_in',
        summary: 'Signed in with an e-mailed link',
      });
      return { user, to: link.redirectTo ?? DEFAULT_LANDING, sessionSecret };
    });
  }

  /**
   * The address a link was sent to, without using the link up. Only a usable link answers: the
   * holder of one could sign in as that address anyway, so showing it to them reveals nothing new.
   */
  async function linkRecipient(secret: string): Promise<{ email: string }> {
    const now = clock.now();
    const [link] = await db
      .select()
      .from(loginLinks)
      .where(eq(loginLinks.tokenHash, sha256(secret)))
      .limit(1);
    const problem = whyUnusable(link, now);
    if (problem) throw problem;
    return { email: link!.email };
  }

  /**
   * Signs in with an external identity (Google): the account is found by issuer and subject, never
   * by e-mail alone. An account with the same e-mail is linked, and a new one created, only when the
   * provider vouches for the address; otherwise whoever controls an unverified identity could take
   * over, or pre-register, the account of the address's real owner.
   */
  async function signInWithIdentity(id: {
    issuer: string;
    subject: string;
    email: string;
    emailVerified: boolean;
    fname: string;
    lname: string;
    picture: string | null;
  }): Promise<{ user: UserRow; sessionSecret: string }> {
    const identitySubject = `${id.issuer}|${id.subject}`;
    const email = id.email.trim().toLowerCase();
    const now = clock.now();
    return db.transaction(async (tx) => {
      let [user] = await tx.select().from(users).where(eq(users.identitySubject, identitySubject)).limit(1);
      if (!user) {
        if (!id.emailVerified) {
          throw new AppError('FORBIDDEN', 'Google has not verified this e-mail address. Sign in with an e-mailed link instead.');
        }
        const [existing] = await tx
          .select()
          .from(users)
          .where(sql`lower(${users.email}) = ${email}`)
          .limit(1);
        if (existing?.identitySubject) {
          throw new AppError(
            'CONFLICT',
            'This e-mail address belongs to an account that signs in with a different Google account.',
          );
        }
        if (existing) {
          [user] = await tx
            .update(users)
            .set({
              identitySubject,
              // Fill only what the person has not set themselves.
              fname: existing.fname || id.fname,
              lname: existing.lname || id.lname,
              picture: existing.picture ?? id.picture,
            })
            .where(eq(users.id, existing.id))
            .returning();
          await deps.audit.record(tx, {
            userId: existing.id,
            actor: email,
            action: 'identity_linked',
            summary: 'Linked sign-in with Google',
          });
        } else {
          [user] = await tx
            .insert(users)
            .values({
              email,
              fname: id.fname,
              lname: id.lname,
              picture: id.picture,
              identitySubject,
              onboarded: false,
              createdAt: now,
            })
            .returning();
        }
      }
      if (!user) throw new AppError('INTERNAL', 'The account could not be loaded');
      const sessionSecret = await deps.sessions.create(tx, user.id, 'google');
      await deps.audit.record(tx, { userId: user.id, actor: user.email, action: 'signed_in', summary: 'Signed in with Google' });
      return { user, sessionSecret };
    });
  }

  return { requestLink, redeemLink, linkRecipient, signInWithIdentity };
}
export type AuthService = ReturnType<typeof createAuthService>;

type LinkRow = typeof loginLinks.$inferSelect;

/** Why a link cannot be redeemed (the error to answer), or undefined when it can. */
function whyUnusable(link: LinkRow | undefined, now: Date): AppError | undefined {
  if (!link) return new AppError('NOT_FOUND', 'This sign-in link is not valid. Request a new one.');
  if (link.usedAt) return new AppError('LINK_USED', 'This sign-in link was already used. Request a new one.');
  if (link.voidedAt)
    return new AppError(
      'LINK_USED',
      'A newer sign-in link was sent to this address. Use the latest e-mail, or request a new one.',
    );
  if (link.expiresAt.getTime() <= now.getTime())
    return new AppError('LINK_EXPIRED', 'This sign-in link has expired. Request a new one.');
  return undefined;
}
