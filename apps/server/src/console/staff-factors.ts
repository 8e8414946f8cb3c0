import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type {
  AddFactorResponse,
  SecondFactorKind,
  SecondFactorStatus,
  StaffFactor,
  StaffFactorList,
  StaffRole,
  TotpEnrollment,
} from '@portal/contract';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { sha256 } from '../lib/crypto';
import { AppError } from '../lib/errors';
import type { SecretBox } from '../lib/secret-box';
import type { StaffSession } from './staff-auth';
import { resetStaffFactors } from './staff-factors-reset';
import { staffFactorsRepository as factors, type StaffFactorRow } from './staff-factors.repository';
import type { StaffActor, StaffService } from './staff.service';

/** A ceremony's options as the browser library takes them. */
type WebAuthnOptions = { challenge: string; [field: string]: unknown };

/** WebAuthn challenges and a new TOTP secret are good this long. */
const CEREMONY_MS = 5 * 60_000;
const TOTP_ENROLL_MS = 10 * 60_000;
export const RECOVERY_CODE_COUNT = 10;
/** One time step either side of now: a phone's clock a little off still works. */
const TOTP_TOLERANCE_SECONDS = 30;
const TOTP_PERIOD_SECONDS = 30;

const toFactor = (f: StaffFactorRow): StaffFactor => ({
  id: f.id,
  kind: f.kind,
  label: f.label,
  createdAt: f.createdAt.toISOString(),
  lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
});

/** The session's standing with its second factor (docs/decisions/070-staff-second-factor.md). */
export function secondFactorStatus(
  required: boolean,
  state: { verified: boolean; kinds: SecondFactorKind[] },
): SecondFactorStatus {
  const methods = state.kinds;
  if (state.verified) return { state: 'ok', required, methods };
  if (methods.length > 0) return { state: 'verify', required, methods };
  return { state: required ? 'enroll' : 'ok', required, methods };
}

/** Ten codes like `k7m2q-x9c4t` (50 random bits each), and how they are stored. */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
const recoveryHash = (code: string) =>
  sha256(
    `staff-recovery:${code
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`,
  );

/**
 * Staff second factors: passkeys (WebAuthn, @simplewebauthn/server) and authenticator apps (TOTP,
 * otplib), recovery codes, the check after the e-mailed link, and an owner's reset. Every change
 * and every check, passed or failed, is in the staff audit log.
 */
export function createStaffFactors(deps: {
  db: Db;
  clock: Clock;
  staff: Pick<StaffService, 'record'>;
  /** Seals TOTP secrets at rest. */
  box: SecretBox;
  /** The console's origin (CONSOLE_PUBLIC_URL): the passkeys' relying party is its host name. */
  consoleUrl: string;
  rpName: string;
  requireFor: readonly StaffRole[];
}) {
  const { db, clock, box, staff } = deps;
  const origin = new URL(deps.consoleUrl).origin;
  const rpID = new URL(deps.consoleUrl).hostname;
  const actorOf = (s: StaffSession): StaffActor => ({ id: s.staff.id, email: s.staff.email });
  const required = (role: StaffRole) => deps.requireFor.includes(role);

  async function listFactors(s: StaffSession): Promise<StaffFactorList> {
    const [rows, left] = await Promise.all([factors.list(db, s.staff.id), factors.recoveryCodesLeft(db, s.staff.id)]);
    return { items: rows.map(toFactor), recoveryCodesLeft: left, required: required(s.staff.role) };
  }

  /**
   * Keeps a new factor, confirms the session with it, and gives the member recovery codes when it
   * is their first factor (shown once: only their hashes are kept).
   */
  async function keep(tx: Tx, s: StaffSession, values: Parameters<typeof factors.insert>[1]): Promise<AddFactorResponse> {
    const now = clock.now();
    const first = (await factors.list(tx, s.staff.id)).length === 0;
    const row = await factors.insert(tx, values);
    await factors.markVerified(tx, s.idHash, row.kind, now);
    let recoveryCodes: string[] | null = null;
    if (first) {
      recoveryCodes = newRecoveryCodes();
      await factors.replaceRecoveryCodes(tx, s.staff.id, recoveryCodes.map(recoveryHash), now);
    }
    await staff.record(tx, actorOf(s), {
      action: 'staff_factor_added',
      reason: '',
      subject: s.staff.email,
      data: { kind: row.kind, label: row.label, recoveryCodes: first },
    });
    return { factor: toFactor(row), recoveryCodes };
  }

  async function startTotpEnrollment(s: StaffSession): Promise<TotpEnrollment> {
    const secret = generateSecret();
    await factors.putChallenge(db, s.idHash, 'totp', box.seal(secret), new Date(clock.now().getTime() + TOTP_ENROLL_MS));
    return { secret, uri: generateURI({ issuer: deps.rpName, label: s.staff.email, secret }) };
  }

  /** The time step `code` belongs to for `secret`, later than `after`, or null. */
  async function totpStep(secret: string, code: string, after: number | null): Promise<number | null> {
    const epoch = Math.floor(clock.now().getTime() / 1000);
    const result = await verifyTotp({
      secret,
      token: code,
      epoch,
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(after !== null ? { afterTimeStep: after } : {}),
    });
    return result.valid ? Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta : null;
  }

  async function addTotp(s: StaffSession, label: string, code: string): Promise<AddFactorResponse> {
    const now = clock.now();
    const sealed = await factors.peekChallenge(db, s.idHash, 'totp', now);
    if (!sealed) throw new AppError('CONFLICT', 'Start adding the authenticator app again: its setup has expired.');
    const secret = box.open(sealed);
    const step = await totpStep(secret, code, null);
    if (step === null) {
      throw new AppError(
        'SECOND_FACTOR_INVALID',
        'This code is not right. Check the app shows this account and try the new code.',
      );
    }
    return db.transaction(async (tx) => {
      if (!(await factors.takeChallenge(tx, s.idHash, 'totp', now))) {
        throw new AppError('CONFLICT', 'Start adding the authenticator app again: its setup has expired.');
      }
      return keep(tx, s, {
        staffId: s.staff.id,
        kind: 'totp',
        label,
        totpSecret: box.seal(secret),
        totpLastStep: step,
        createdAt: now,
        lastUsedAt: now,
      });
    });
  }

  async function startPasskeyRegistration(s: StaffSession): Promise<WebAuthnOptions> {
    const existing = (await factors.list(db, s.staff.id)).filter((f) => f.kind === 'passkey');
    const options = await generateRegistrationOptions({
      rpName: deps.rpName,
      rpID,
      userName: s.staff.email,
      userID: new TextEncoder().encode(s.staff.id),
      attestationType: 'none',
      excludeCredentials: existing.map((f) => ({ id: f.credentialId!, transports: f.transports ?? [] })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    });
    await factors.putChallenge(db, s.idHash, 'register', options.challenge, new Date(clock.now().getTime() + CEREMONY_MS));
    return { ...options };
  }

  async function addPasskey(s: StaffSession, label: string, response: RegistrationResponseJSON): Promise<AddFactorResponse> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const challenge = await factors.takeChallenge(tx, s.idHash, 'register', now);
      if (!challenge) throw new AppError('CONFLICT', 'Start adding the passkey again: its request has expired.');
      let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        result = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        result = { verified: false };
      }
      if (!result.verified) throw new AppError('SECOND_FACTOR_INVALID', 'This passkey could not be checked. Please try again.');
      const { credential } = result.registrationInfo;
      return keep(tx, s, {
        staffId: s.staff.id,
        kind: 'passkey',
        label,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: credential.transports ?? [],
        createdAt: now,
        lastUsedAt: now,
      });
    });
  }

  /** Removes one of the member's own factors; a role that requires one keeps at least one. */
  async function removeFactor(s: StaffSession, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const all = await factors.list(tx, s.staff.id);
      const row = all.find((f) => f.id === id);
      if (!row) throw new AppError('NOT_FOUND', 'This factor was not found');
      if (all.length === 1 && required(s.staff.role)) {
        throw new AppError(
          'CONFLICT',
          `Your role (${s.staff.role}) needs a second factor: add another before removing this one.`,
        );
      }
      await factors.delete(tx, s.staff.id, id);
      // Recovery codes stand in for factors: with none left, they go too.
      if (all.length === 1) await factors.replaceRecoveryCodes(tx, s.staff.id, [], clock.now());
      await staff.record(tx, actorOf(s), {
        action: 'staff_factor_removed',
        reason: '',
        subject: s.staff.email,
        data: { kind: row.kind, label: row.label },
      });
    });
  }

  async function regenerateRecoveryCodes(s: StaffSession): Promise<{ recoveryCodes: string[] }> {
    return db.transaction(async (tx) => {
      if ((await factors.list(tx, s.staff.id)).length === 0) {
        throw new AppError('CONFLICT', 'Add a passkey or an authenticator app first: recovery codes stand in for them.');
      }
      const recoveryCodes = newRecoveryCodes();
      await factors.replaceRecoveryCodes(tx, s.staff.id, recoveryCodes.map(recoveryHash), clock.now());
      await staff.record(tx, actorOf(s), { action: 'staff_recovery_codes_renewed', reason: '', subject: s.staff.email });
      return { recoveryCodes };
    });
  }

  /** A check that passed: the session may act, and the sign-in is complete in the audit log. */
  async function passed(tx: Tx, s: StaffSession, method: string): Promise<void> {
    await factors.markVerified(tx, s.idHash, method, clock.now());
    await staff.record(tx, actorOf(s), {
      action: 'staff_second_factor_passed',
      reason: '',
      subject: s.staff.email,
      data: { method },
    });
  }

  /** A check that failed is recorded too (a security reviewer looks for these), then refused. */
  async function failed(s: StaffSession, method: string, message: string): Promise<never> {
    await db.transaction((tx) =>
      staff.record(tx, actorOf(s), {
        action: 'staff_second_factor_failed',
        reason: '',
        subject: s.staff.email,
        data: { method },
      }),
    );
    throw new AppError('SECOND_FACTOR_INVALID', message);
  }

  async function startPasskeyCheck(s: StaffSession): Promise<WebAuthnOptions> {
    const passkeys = (await factors.list(db, s.staff.id)).filter((f) => f.kind === 'passkey');
    if (passkeys.length === 0)
      throw new AppError('CONFLICT', 'You have no passkey: use your authenticator app or a recovery code.');
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: passkeys.map((f) => ({ id: f.credentialId!, transports: f.transports ?? [] })),
      userVerification: 'required',
    });
    await factors.putChallenge(db, s.idHash, 'authenticate', options.challenge, new Date(clock.now().getTime() + CEREMONY_MS));
    return { ...options };
  }

  async function checkPasskey(s: StaffSession, response: AuthenticationResponseJSON): Promise<void> {
    const now = clock.now();
    const ok = await db.transaction(async (tx) => {
      const challenge = await factors.takeChallenge(tx, s.idHash, 'authenticate', now);
      if (!challenge) throw new AppError('CONFLICT', 'Start the passkey check again: its request has expired.');
      const factor = await factors.findPasskey(tx, s.staff.id, response.id);
      if (!factor) return false;
      try {
        const result = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: factor.credentialId!,
            publicKey: Buffer.from(factor.publicKey!, 'base64url'),
            counter: factor.signCount ?? 0,
            transports: (factor.transports ?? []) as never,
          },
        });
        if (!result.verified) return false;
        await factors.passkeyUsed(tx, factor.id, result.authenticationInfo.newCounter, now);
      } catch {
        return false;
      }
      await passed(tx, s, 'passkey');
      return true;
    });
    if (!ok) await failed(s, 'passkey', 'This passkey could not be checked. Please try again.');
  }

  /** A 6-digit code of one of the member's authenticator apps, each accepted once; or a recovery code, once. */
  async function checkCode(s: StaffSession, code: string): Promise<void> {
    const now = clock.now();
    const totp = /^\d{6}$/.test(code);
    const ok = await db.transaction(async (tx) => {
      if (totp) {
        for (const f of (await factors.list(tx, s.staff.id)).filter((x) => x.kind === 'totp')) {
          const step = await totpStep(box.open(f.totpSecret!), code, f.totpLastStep);
          if (step !== null && (await factors.acceptTotpStep(tx, f.id, step, now))) {
            await passed(tx, s, 'totp');
            return true;
          }
        }
        return false;
      }
      if (!(await factors.useRecoveryCode(tx, s.staff.id, recoveryHash(code), now))) return false;
      await passed(tx, s, 'recovery_code');
      return true;
    });
    if (!ok) {
      await failed(
        s,
        totp ? 'totp' : 'recovery_code',
        totp
          ? 'This code is not right, or was used already. Wait for the next code and try again.'
          : 'This recovery code is not right, or was used already.',
      );
    }
  }

  /** An owner's reset of another member's factors (resetStaffFactors). */
  async function resetFactors(id: string, actor: StaffActor, reason: string): Promise<void> {
    await resetStaffFactors({ db, staff }, id, actor, reason);
  }

  return {
    required,
    listFactors,
    startTotpEnrollment,
    addTotp,
    startPasskeyRegistration,
    addPasskey,
    removeFactor,
    regenerateRecoveryCodes,
    startPasskeyCheck,
    checkPasskey,
    checkCode,
    resetFactors,
  };
}
export type StaffFactors = ReturnType<typeof createStaffFactors>;
