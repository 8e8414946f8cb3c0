import {
  LICENSE_EXPIRING_SOON_DAYS,
  type License,
  type LicenseNode,
  type LicenseStatus,
  type LicenseSummary,
  type Page,
} from '@portal/contract';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { DAY_MS, statusOf, toLicense, toNode } from './license-rules';
import { licensesRepository as repo, prepareOwnerQueries } from './licenses.repository';
import type { LastSeenBuffer } from './last-seen-buffer';

export type LicenseExport = {
  licenseKey: string;
  status: LicenseStatus;
  maxNodes: number;
  expiresAt: string;
  createdAt: string;
  revokedAt: string | null;
  nodes: LicenseNode[];
};

/** What the owner sees of their licenses: lists, the dashboard's figures, the data export. */
export function createOwnerViews(deps: { db: Db; clock: Clock; lastSeen: LastSeenBuffer }) {
  const { db, clock, lastSeen } = deps;
  const owner = prepareOwnerQueries(db);

  async function listLicenses(userId: string, page: number, size: number): Promise<Page<License>> {
    const now = clock.now();
    const { rows, total } = await owner.licensesForUser(userId, size, (page - 1) * size);
    return { items: rows.map((r) => toLicense(r.license, r.providerId, now)), page, size, total };
  }

  async function listNodes(userId: string, key: string, page: number, size: number): Promise<Page<LicenseNode>> {
    const license = await owner.findOwned(userId, key);
    if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
    const rows = await owner.nodesOfLicense(license.id, size, (page - 1) * size);
    return { items: rows.map((n) => toNode(n, lastSeen.lastSeenOf)), page, size, total: license.activeNodes };
  }

  /** Subscription id -> license key (the newest when a subscription has several). */
  async function keysBySubscription(subscriptionIds: string[]): Promise<Map<string, string>> {
    const rows = await repo.keysBySubscription(db, subscriptionIds);
    const map = new Map<string, string>();
    for (const r of rows) if (r.subscriptionId) map.set(r.subscriptionId, r.key);
    return map;
  }

  /**
   * The dashboard's figures. `licenses` counts every license the user owns; nodes, limits,
   * `atLimit` and `expiringSoon` (within LICENSE_EXPIRING_SOON_DAYS) cover usable licenses only;
   * `suspended` names the licenses staff suspended, `suspensionMessages` what staff told the owner of them.
   */
  async function summaryForUser(userId: string): Promise<LicenseSummary> {
    const now = clock.now();
    const rows = await repo.allOfUser(db, userId);
    const usable = rows.filter((l) => statusOf(l, now) === 'active');
    const suspended = rows.filter((l) => statusOf(l, now) === 'suspended');
    const soon = now.getTime() + LICENSE_EXPIRING_SOON_DAYS * DAY_MS;
    return {
      licenses: rows.length,
      activeNodes: usable.reduce((n, l) => n + l.activeNodes, 0),
      maxNodes: usable.reduce((n, l) => n + l.maxNodes, 0),
      atLimit: usable.filter((l) => l.activeNodes >= l.maxNodes).map((l) => l.key),
      expiringSoon: usable
        .filter((l) => l.expiresAt.getTime() <= soon)
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .map((l) => ({ key: l.key, expiresAt: l.expiresAt.toISOString() })),
      suspended: suspended.map((l) => l.key),
      suspensionMessages: Object.fromEntries(
        suspended.flatMap((l) => (l.suspensionMessage ? [[l.key, l.suspensionMessage] as const] : [])),
      ),
    };
  }

  /** Every license of the user with its nodes, for the personal data export. */
  async function exportForUser(userId: string): Promise<LicenseExport[]> {
    const now = clock.now();
    const rows = await repo.allOfUser(db, userId);
    const allNodes = await repo.allNodesOf(
      db,
      rows.map((l) => l.id),
    );
    return rows.map((license) => ({
      licenseKey: license.key,
      status: statusOf(license, now),
      maxNodes: license.maxNodes,
      expiresAt: license.expiresAt.toISOString(),
      createdAt: license.createdAt.toISOString(),
      revokedAt: license.revokedAt?.toISOString() ?? null,
      nodes: allNodes.filter((n) => n.licenseId === license.id).map((n) => toNode(n, lastSeen.lastSeenOf)),
    }));
  }

  return { listLicenses, listNodes, keysBySubscription, summaryForUser, exportForUser };
}
