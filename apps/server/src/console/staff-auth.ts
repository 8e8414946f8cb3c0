import { LOGIN_LINK_TTL_MINUTES, type SecondFactorStatus, type StaffRole } from '@portal/contract';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { randomSecret, sha256 } from '../lib/crypto';
import { AppError } from '../lib/errors';
import { redeemOrRefuse } from '../modules/auth/auth.service';
import { signInEmail } from '../modules/auth/sign-in-email';
import type { OutboxService } from '../modules/outbox/outbox.service';
import type { IdentityClaims } from '../providers/identity';
import { secondFactorStatus } from './staff-factors';
import { staffFactorsRepository as factors } from './staff-factors.repository';
import { staffLinksRepository as links, staffRepository as repo, type StaffRow } from './staff.repository';
import type { StaffService } from './staff.service';

const HOUR = 3_600_000;
/** Staff sessions last at most 7 days; idle, CONSOLE_SESSION_IDLE_MINUTES (default 60). */
export const STAFF_ABSOLUTE_MS = 7 * 24 * HOUR;
/** A session still short of its second factor is good for this long after the link. */
export const PENDING_SECOND_FACTOR_MS = LOGIN_LINK_TTL_MINUTES * 60_000;

/** A staff session: its member, and where it stands with the second factor. */
export type StaffSession = { idHash: string; staff: StaffRow; secondFactor: SecondFactorStatus };

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
  /** Sign-ins are written to the staff audit log. */
  staff: Pick<StaffService, 'record'>;
  /** CONSOLE_SESSION_IDLE_MINUTES. */
  idleMinutes: number;
  /** CONSOLE_REQUIRE_SECOND_FACTOR's roles. */
  requireSecondFactor: readonly StaffRole[];
}) {
  const { db, clock } = deps;
  const idleMs = deps.idleMinutes * 60_000;
  /** last_seen_at is written at most this often per session (well inside the idle time). */
  const touchEveryMs = Math.min(5 * 60_000, idleMs / 4);

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
      return { staff: member, sessionSecret: await startSession(tx, member, now, 'link') };
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
      return { staff: member, sessionSecret: await startSession(tx, member, now, 'google') };
    });
  }

  /**
   * A new staff session, the member's last sign-in and its audit entry, the same for every way of
   * signing in. The session still has its second factor to pass when the member has one or
   * their role requires one (lookup tells).
   */
  async function startSession(tx: Tx, member: StaffRow, now: Date, method: 'link' | 'google'): Promise<string> {
    const sessionSecret = randomSecret();
    await repo.insertSession(tx, {
      idHash: sha256(sessionSecret),
      staffId: member.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_MS),
    });
    await repo.signedIn(tx, member.id, now);
    await deps.staff.record(
      tx,
      { id: member.id, email: member.email },
      {
        action: 'staff_signed_in',
        reason: '',
        subject: member.email,
        data: { method },
      },
    );
    return sessionSecret;
  }

  /**
   * The session of a cookie's secret, or null (expired, idle, ended, the member removed, or left
   * short of its second factor for longer than a link lives).
   */
  async function lookup(secret: string): Promise<StaffSession | null> {
    const now = clock.now();
    const idHash = sha256(secret);
    const row = await repo.findSession(db, idHash, now, new Date(now.getTime() - idleMs));
    if (!row) return null;
    const secondFactor = secondFactorStatus(
      deps.requireSecondFactor.includes(row.staff.role),
      await factors.sessionState(db, idHash, row.staff.id),
    );
    if (secondFactor.state !== 'ok' && now.getTime() - row.session.createdAt.getTime() > PENDING_SECOND_FACTOR_MS) return null;
    if (now.getTime() - row.session.lastSeenAt.getTime() > touchEveryMs) await repo.touchSession(db, idHash, now);
    return { idHash, staff: row.staff, secondFactor };
  }

  async function signOut(idHash: string): Promise<void> {
    await repo.deleteSession(db, idHash);
  }

  async function purgeExpired(): Promise<void> {
    const now = clock.now();
    await repo.deleteExpiredSessions(db, now, new Date(now.getTime() - idleMs));
    await factors.deleteExpiredChallenges(db, now);
  }

  return { requestLink, redeemLink, signInWithIdentity, lookup, signOut, purgeExpired };
}
export type StaffAuth = ReturnType<typeof createStaffAuth>;
