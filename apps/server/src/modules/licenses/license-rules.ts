import type { License, LicenseNode, LicenseStatus } from '@portal/contract';
import type { LicenseRow, NodeRow } from './licenses.repository';

/** Actor of changes made by a machine holding only the key (no session involved). */
export const KEY_HOLDER_ACTOR = 'license-key';

export const DAY_MS = 86_400_000;

/**
 * A node's stored last-seen time moves on in steps of at least this: last seen is kept to the
 * minute, and a chatty fleet writes each node once a minute at most (ADR 043).
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;
export const day = (d: Date) => d.toISOString().slice(0, 10);
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Expiry is computed from the stored date, so an ended period needs no scheduled job. */
export function statusOf(license: Pick<LicenseRow, 'status' | 'expiresAt'>, now: Date): LicenseStatus {
  if (license.status === 'suspended') return 'suspended';
  if (license.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** `grace: { until }` while a failing payment's grace runs (signed in answers and license files). */
export function graceOf(license: Pick<LicenseRow, 'graceUntil'>, now: Date): { grace?: { until: string } } {
  const until = license.graceUntil;
  return until && until.getTime() > now.getTime() ? { grace: { until: until.toISOString() } } : {};
}

export const nodeLabel = (n: Pick<NodeRow, 'hostname' | 'fingerprint'>) =>
  n.hostname || (n.fingerprint.length > 24 ? `${n.fingerprint.slice(0, 24)}…` : n.fingerprint);

/** Why no node can be activated on a license that is not active. */
export function inactiveMessage(license: LicenseRow, status: LicenseStatus) {
  if (status === 'suspended') {
    const what = license.revokedAt ? `was revoked on ${day(license.revokedAt)}` : 'is suspended';
    return `This license ${what}, so no node can be activated on it. Contact support if you think this is a mistake.`;
  }
  return `This license expired on ${day(license.expiresAt)}, so no node can be activated on it. Renew the subscription to use it again.`;
}

/** A license as the API shows it (its `stripeId` is the contract's name for any provider's subscription id). */
export const toLicense = (l: LicenseRow, providerId: string | null, now: Date): License => ({
  licenseKey: l.key,
  status: statusOf(l, now),
  maxNodes: l.maxNodes,
  activeNodes: l.activeNodes,
  expiresAt: l.expiresAt.toISOString(),
  createdAt: l.createdAt.toISOString(),
  stripeId: providerId,
});

/** A node as the API shows it, with its last-seen time (a buffered one may be newer than the row's). */
export const toNode = (n: NodeRow, lastSeenOf: (n: NodeRow) => Date): LicenseNode => ({
  id: n.id,
  fingerprint: n.fingerprint,
  hostname: n.hostname,
  activatedAt: n.activatedAt.toISOString(),
  lastSeenAt: lastSeenOf(n).toISOString(),
});
