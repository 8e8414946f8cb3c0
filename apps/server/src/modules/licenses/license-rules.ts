import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { License, LicenseNode, LicenseStatus } from '@portal/contract';
import { sqlLiteral } from '../../db/literals';
import { licenses } from '../../db/schema/index';
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

/**
 * The stored statuses (licenses.status) the rule below reads: staff's suspension, and the one that
 * leaves the status to the expiry date. `statusOf` and `licenseStatusWhere` are built from these.
 */
export const LICENSE_SUSPENDED = 'suspended' satisfies LicenseRow['status'];
export const LICENSE_NOT_SUSPENDED = 'active' satisfies LicenseRow['status'];

/** Expiry is computed from the stored date, so an ended period needs no scheduled job. */
export function statusOf(license: Pick<LicenseRow, 'status' | 'expiresAt'>, now: Date): LicenseStatus {
  if (license.status === LICENSE_SUSPENDED) return 'suspended';
  if (license.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * `statusOf(license, now) === status` as an SQL condition on the licenses table (or on `columns`
 * of another alias): the console's filters and counts, so that they and the API never disagree.
 * The active one matches the partial index of active licenses by expiry (migration 0025).
 */
export function licenseStatusWhere(
  status: LicenseStatus,
  now: Date,
  columns: { status: SQLWrapper; expiresAt: SQLWrapper } = licenses,
): SQL {
  const at = now.toISOString();
  if (status === 'suspended') return sql`${columns.status} = ${sqlLiteral(LICENSE_SUSPENDED)}`;
  if (status === 'expired') {
    return sql`(${columns.status} = ${sqlLiteral(LICENSE_NOT_SUSPENDED)} and ${columns.expiresAt} <= ${at})`;
  }
  return sql`(${columns.status} = ${sqlLiteral(LICENSE_NOT_SUSPENDED)} and ${columns.expiresAt} > ${at})`;
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
export const toLicense = (l: LicenseRow, providerId: string | null, now: Date): License => {
  const status = statusOf(l, now);
  return {
    licenseKey: l.key,
    status,
    maxNodes: l.maxNodes,
    activeNodes: l.activeNodes,
    expiresAt: l.expiresAt.toISOString(),
    createdAt: l.createdAt.toISOString(),
    stripeId: providerId,
    suspensionMessage: suspensionMessageOf(l, status),
  };
};

/** Staff's message to the owner, while (and only while) the license is suspended. */
export const suspensionMessageOf = (l: Pick<LicenseRow, 'suspensionMessage'>, status: LicenseStatus): string | null =>
  status === 'suspended' ? (l.suspensionMessage ?? null) : null;

/** A node as the API shows it, with its last-seen time (a buffered one may be newer than the row's). */
export const toNode = (n: NodeRow, lastSeenOf: (n: NodeRow) => Date): LicenseNode => ({
  id: n.id,
  fingerprint: n.fingerprint,
  hostname: n.hostname,
  activatedAt: n.activatedAt.toISOString(),
  lastSeenAt: lastSeenOf(n).toISOString(),
});
