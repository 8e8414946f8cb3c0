import type { ActivateResponse } from '@portal/contract';
import type { Db, WithinTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import { inactiveMessage, KEY_HOLDER_ACTOR, plural, statusOf, toLicense, toNode } from './license-rules';
import { licensesRepository as repo, type NodeRow } from './licenses.repository';
import type { LastSeenBuffer } from './last-seen-buffer';

export type ActivationDeps = {
  db: Db;
  clock: Clock;
  audit: AuditService;
  lastSeen: LastSeenBuffer;
  /** Told of every license this instance changes, before its transaction commits (see validation-cache.ts). */
  changing: (key: string) => void;
};

/** Activation by a machine holding the key, and release of a node by the license's owner. */
export function createActivation(deps: ActivationDeps) {
  const { db, clock, audit, lastSeen, changing } = deps;

  /**
   * Activates `fingerprint` on the license of `key`. The license row is locked first, so parallel
   * activations read and move its node count one after another and the limit holds exactly.
   */
  async function activate(
    key: string,
    input: { fingerprint: string; hostname?: string | undefined },
  ): Promise<{ created: boolean; answer: ActivateResponse }> {
    const hostname = input.hostname?.trim() || null;
    return db.transaction(async (tx) => {
      const license = await repo.lockByKey(tx, key);
      if (!license) throw new AppError('NOT_FOUND', 'No license has this key. Check the key and try again.');
      const now = clock.now();
      const status = statusOf(license, now);
      if (status !== 'active') throw new AppError('LICENSE_INACTIVE', inactiveMessage(license, status));

      const existing = await repo.findNodeByFingerprint(tx, license.id, input.fingerprint);
      let node: NodeRow;
      let created = false;
      let activeNodes = license.activeNodes;
      if (existing) {
        node = await repo.touchNode(tx, existing.id, { hostname, now });
      } else {
        if (license.activeNodes >= license.maxNodes) {
          throw new AppError(
            'NODE_LIMIT_REACHED',
            `This license allows ${plural(license.maxNodes, 'node')} and all of them are in use. ` +
              'To make room, release a node you no longer use on the Licenses page of the portal, or raise the subscription quantity; then activate again.',
          );
        }
        changing(license.key);
        node = await repo.insertNode(tx, { licenseId: license.id, fingerprint: input.fingerprint, hostname, now });
        activeNodes = await repo.addActiveNodes(tx, license.id, 1);
        created = true;
        await audit.record(tx, {
          type: 'node_activated',
          userId: license.userId,
          actor: KEY_HOLDER_ACTOR,
          license: { id: license.id, key },
          node,
        });
      }
      const { stripeId: _omit, suspensionMessage: _owners, ...licenseView } = toLicense({ ...license, activeNodes }, null, now);
      return { created, answer: { node: toNode(node, lastSeen.lastSeenOf), license: licenseView } };
    });
  }

  /** Releases the node of a retired machine; the owner's call only. */
  async function releaseNode(userId: string, key: string, nodeId: string, actor: string, within?: WithinTx): Promise<void> {
    await db.transaction(async (tx) => {
      // The license's row lock before the node's, in activation's order, so the two cannot deadlock.
      const license = await repo.lockOwned(tx, userId, key);
      if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
      changing(license.key);
      const node = await repo.deleteNode(tx, license.id, nodeId);
      if (!node) throw new AppError('NOT_FOUND', 'This node was not found on this license');
      await repo.addActiveNodes(tx, license.id, -1);
      await audit.record(tx, { type: 'node_released', userId, actor, license: { id: license.id, key }, node });
      await within?.(tx);
    });
    lastSeen.forget(nodeId);
  }

  return { activate, releaseNode };
}
