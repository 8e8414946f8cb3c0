import { LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { randomSecret, sha256 } from '../lib/crypto';
import { AppError } from '../lib/errors';
import { redeemOrRefuse } from '../modules/auth/auth.service';
import { signInEmail } from '../modules/auth/sign-in-email';
import type { OutboxService } from '../modules/outbox/outbox.service';
import type { IdentityClaims } from '../providers/identity';
import { staffLinksRepository as links, staffRepository as repo, type StaffRow } from './staff.repository';

const HOUR = 3_600_000;
/** Staff sessions are shorter than customers': idle 12 hours, at most 7 days. */
export const STAFF_IDLE_MS = 12 * HOUR;
export const STAFF_ABSOLUTE_MS = 7 * 24 * HOUR;
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 5 * 60_000;

export type StaffSession = { idHash: string; staff: StaffRow };

/**
 * Staff sign-in: the customers' link machinery (hashed single-use secrets, 15 minutes, newer links
 * void older ones, modules/auth) on the staff tables, and sessions of their own.
 */
export function createStaffAuth(deps: {
  db: Db;
  clock: Clock;
  /** The console's origin: links in e-mails are built from it, never from the request. */
  consoleUrl: string;
  outbox: Pick<OutboxService, 'enqueue' | 'kick'>;
}) {
  const { db, clock } = deps;

  /**
   * E-mails a link when the address belongs to active staff. Anyone else gets the same answer and
   * the same work up to the insert, so the answer does not tell staff addresses apart.
   */
  async function requestLink(email: string): Promise<void> {
    const secret = randomSecret();
    const now = clock.now();
    const url = new URL('/login', deps.consoleUrl);
    url.searchParams.set('link', secret);
    let sent = false;
    await db.transaction(async (tx) => {
      const member = await repo.findActiveByEmail(tx, email);
      await links.voidOpen(tx, email, now);
      if (!member) return;
      await links.insert(tx, {
        tokenHash: sha256(secret),
        email: member.email,
        redirectTo: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + LOGIN_LINK_TTL_MINUTES * 60_000),
      });
      await deps.outbox.enqueue(tx, 'email', {
        to: member.email,
        ...signInEmail({ url: url.toString(), minutes: LOGIN_LINK_TTL_MINUTES }),
        logHint: `Console sign-in link for ${member.email}: ${url.toString()}`,
      });
      sent = true;
    });
    if (sent) void deps.outbox.kick();
  }

  /** Redeems a link once and starts a staff session (a removed member's link no longer works). */
  async function redeemLink(secret: string): Promise<{ staff: StaffRow; sessionSecret: string }> {
    const tokenHash = sha256(secret);
    const now = clock.now();
    return db.transaction(async (tx) => {
      const link = await redeemOrRefuse(links, tx, tokenHash, now);
      const member = await repo.findActiveByEmail(tx, link.email);
      if (!member) throw new AppError('NOT_FOUND', 'This sign-in link is not valid. Request a new one.');
      return { staff: member, sessionSecret: await startSession(tx, member, now) };
    });
  }

  /**
   * Google's verified address signs in the active staff member who has it (any letter case);
   * nobody is created. Anyone else: FORBIDDEN, and no session.
   */
  async function signInWithIdentity(claims: IdentityClaims): Promise<{ staff: StaffRow; sessionSecret: string }> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const member = claims.emailVerified ? await repo.findActiveByEmail(tx, claims.email) : undefined;
      if (!member) throw new AppError('FORBIDDEN', "This Google account is not on the vendor's staff.");
      return { staff: member, sessionSecret: await startSession(tx, member, now) };
    });
  }

  /** A new staff session and the member's last sign-in, the same for every way of signing in. */
  async function startSession(tx: Tx, member: StaffRow, now: Date): Promise<string> {
    const sessionSecret = randomSecret();
    await repo.insertSession(tx, {
      idHash: sha256(sessionSecret),
      staffId: member.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_MS),
    });
    await repo.signedIn(tx, member.id, now);
    return sessionSecret;
  }

  /** The session of a cookie's secret, or null (expired, idle, ended, or the member removed). */
  async function lookup(secret: string): Promise<StaffSession | null> {
    const now = clock.now();
    const idHash = sha256(secret);
    const row = await repo.findSession(db, idHash, now, new Date(now.getTime() - STAFF_IDLE_MS));
    if (!row) return null;
    if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(db, idHash, now);
    return { idHash, staff: row.staff };
  }

  async function signOut(idHash: string): Promise<void> {
    await repo.deleteSession(db, idHash);
  }

  async function purgeExpired(): Promise<void> {
    const now = clock.now();
    await repo.deleteExpiredSessions(db, now, new Date(now.getTime() - STAFF_IDLE_MS));
  }

  return { requestLink, redeemLink, signInWithIdentity, lookup, signOut, purgeExpired };
}
export type StaffAuth = ReturnType<typeof createStaffAuth>;
