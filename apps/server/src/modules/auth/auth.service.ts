import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_LANDING, LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomSecret, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { IdentityClaims } from '../../providers/identity';
import type { AuditService } from '../audit/audit.service';
import type { OutboxService } from '../outbox/outbox.service';
import type { UserRow } from '../users/users.repository';
import type { UserService } from '../users/users.service';
import { loginLinksRepository as links, type LinkRow } from './auth.repository';
import type { SessionService } from './sessions';
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
  users: Pick<UserService, 'findOrCreateByEmail' | 'findByEmail' | 'findByIdentity' | 'linkIdentity' | 'createFromIdentity'>;
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
      await links.voidOpen(tx, email, now);
      await links.insert(tx, {
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
      const link = await redeemOrRefuse(links, tx, tokenHash, now);
      const user = await deps.users.findOrCreateByEmail(tx, link.email);
      const sessionSecret = await deps.sessions.create(tx, user.id, 'link');
      await deps.audit.record(tx, { type: 'signed_in', method: 'link', userId: user.id, actor: user.email });
      return { user, to: link.redirectTo ?? DEFAULT_LANDING, sessionSecret };
    });
  }

  /**
   * The address a link was sent to, without using the link up. Only a usable link answers: the
   * holder of one could sign in as that address anyway, so showing it to them reveals nothing new.
   */
  async function linkRecipient(secret: string): Promise<{ email: string }> {
    const now = clock.now();
    const link = await links.findByHash(db, sha256(secret));
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
  async function signInWithIdentity(id: IdentityClaims): Promise<{ user: UserRow; sessionSecret: string }> {
    const identitySubject = `${id.issuer}|${id.subject}`;
    const email = id.email.trim().toLowerCase();
    return db.transaction(async (tx) => {
      let user = await deps.users.findByIdentity(tx, identitySubject);
      if (!user) {
        if (!id.emailVerified) {
          throw new AppError('FORBIDDEN', 'Google has not verified this e-mail address. Sign in with an e-mailed link instead.');
        }
        const existing = await deps.users.findByEmail(tx, email);
        if (existing?.identitySubject) {
          throw new AppError(
            'CONFLICT',
            'This e-mail address belongs to an account that signs in with a different Google account.',
          );
        }
        const claims = { identitySubject, email, fname: id.fname, lname: id.lname, picture: id.picture };
        if (existing) {
          user = await deps.users.linkIdentity(tx, existing, claims);
          await deps.audit.record(tx, { type: 'identity_linked', userId: existing.id, actor: email });
        } else {
          user = await deps.users.createFromIdentity(tx, claims);
        }
      }
      if (!user) throw new AppError('INTERNAL', 'The account could not be loaded');
      const sessionSecret = await deps.sessions.create(tx, user.id, 'google');
      await deps.audit.record(tx, { type: 'signed_in', method: 'google', userId: user.id, actor: user.email });
      return { user, sessionSecret };
    });
  }

  /** Deletes every sign-in link of the address (account deletion): they hold the address, which is personal data. */
  async function eraseForUser(tx: Tx, user: { email: string }): Promise<void> {
    await links.deleteForEmail(tx, user.email);
  }

  return { requestLink, redeemLink, linkRecipient, signInWithIdentity, eraseForUser };
}
export type AuthService = ReturnType<typeof createAuthService>;

/**
 * Marks the link of `tokenHash` used and answers it, or throws why it cannot be used: redeemed at
 * most once even under parallel redemptions, and a link that just stopped being usable (a parallel
 * redemption, the expiry) is reported as such. The customers' links and the staff's alike.
 */
export async function redeemOrRefuse<L extends Pick<LinkRow, 'email' | 'usedAt' | 'voidedAt' | 'expiresAt'>>(
  repo: {
    redeem: (tx: Tx, tokenHash: string, now: Date) => Promise<L | undefined>;
    findByHash: (tx: Tx, tokenHash: string) => Promise<L | undefined>;
  },
  tx: Tx,
  tokenHash: string,
  now: Date,
): Promise<L> {
  const link = await repo.redeem(tx, tokenHash, now);
  if (link) return link;
  const known = await repo.findByHash(tx, tokenHash);
  throw whyUnusable(known, now) ?? new AppError('LINK_USED', 'This sign-in link was already used. Request a new one.');
}

/** Why a link cannot be redeemed (the error to answer), or undefined when it can (staff links too). */
export function whyUnusable(
  link: Pick<LinkRow, 'usedAt' | 'voidedAt' | 'expiresAt'> | undefined,
  now: Date,
): AppError | undefined {
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
