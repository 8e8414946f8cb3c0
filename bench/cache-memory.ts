// Memory of the validation cache (`npm run bench -- cache-memory`): 1M nodes held in memory, as
// 100k licenses of 10 nodes with 64-character fingerprints (a SHA-256 of a machine id, the common
// kind) and UUID node ids, measured as the growth of the V8 heap after full collections.
import { randomBytes, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Notifications } from '../apps/server/src/db/notifications';
import type { ValidationQueries } from '../apps/server/src/modules/licenses/licenses.repository';
import { createValidationCache } from '../apps/server/src/modules/licenses/validation-cache';
import { makeLicenseKeys } from './seed';
import { round } from './support';

const LICENSES = 100_000;
const NODES_PER_LICENSE = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

export async function cacheMemoryBench(): Promise<Record<string, { value: unknown; target: string }>> {
  const keys = makeLicenseKeys(LICENSES);
  const expiresAt = new Date(Date.now() + 86_400_000);
  // Rows are made as the database drivers hand them over: fresh flat strings decoded from bytes
  // (randomUUID's own strings are concatenations, several times larger than what a driver makes).
  const flat = (s: string) => Buffer.from(s, 'latin1').toString('latin1');
  const queries = {
    licenseByKey: async (key: string) => ({
      id: flat(randomUUID()),
      key,
      status: 'active',
      maxNodes: 20,
      activeNodes: NODES_PER_LICENSE,
      expiresAt,
    }),
    nodesOf: async () =>
      Array.from({ length: NODES_PER_LICENSE }, () => ({ id: flat(randomUUID()), fingerprint: randomBytes(32).toString('hex') })),
    nodeIdOf: async () => undefined,
    findForValidation: async () => undefined,
  } as unknown as ValidationQueries;
  const notifications: Notifications = {
    subscribe: () => () => {},
    freshThrough: () => performance.now(),
    close: async () => {},
  };
  const before = heap();
  const cache = createValidationCache({ queries, notifications, maxNodes: 10_000_000 });
  const t0 = performance.now();
  for (const key of keys) await cache.find(key, undefined);
  const loadSeconds = (performance.now() - t0) / 1000;
  const after = heap();
  const stats = cache.stats();
  const mb = (after - before) / 1024 / 1024;
  const nodes = LICENSES * NODES_PER_LICENSE;
  console.log(
    `  ${stats.licenses} licenses, ${nodes} nodes: ${round(mb)} MB of heap (${round((after - before) / nodes)} bytes a node)`,
  );
  return {
    'licenses held': { value: stats.licenses, target: '' },
    'nodes held': { value: nodes, target: '' },
    'heap for 1M nodes (MB)': { value: round(mb), target: '< 300' },
    'bytes per node': { value: round((after - before) / nodes), target: '' },
    'load time in memory (s)': { value: round(loadSeconds, 1), target: '' },
  };
}
