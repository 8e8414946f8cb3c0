import type { Notifications } from '../../db/notifications';
import type { ValidationQueries, ValidationRow } from './licenses.repository';

/** The channel the licenses and nodes triggers announce changed license keys on (migration 0002). */
export const LICENSE_CHANGED_CHANNEL = 'license_changed';

export type ValidationCacheOptions = {
  queries: ValidationQueries;
  notifications: Notifications;
  /**
   * Bound of the memory: licenses are dropped, least recently used first, while the nodes held
   * (plus one per license) exceed it. 1M nodes of 64-character fingerprints take about 250 MB
   * (`npm run bench -- cache-memory`).
   */
  maxNodes?: number;
  /** Answers are never older than this: past it (no heartbeat back in time) the database answers. */
  maxStaleMs?: number;
  /** Licenses with more nodes than this keep their license row only; each node is then looked up once and kept. */
  fullLoadNodes?: number;
  /** How long a license this instance is changing is read from the database (its notification may lag the commit). */
  changingMs?: number;
  now?: () => number;
};

type Entry = {
  row: Omit<ValidationRow, 'nodeId'>;
  id: string;
  /** Fingerprint -> node id; null: known not to be activated (large licenses only). */
  nodes: Map<string, string | null>;
  /** Every node of the license is in `nodes`: a missing fingerprint is not activated. */
  complete: boolean;
};

/**
 * What validation needs, in memory: each license (status, expiry, limit, node count) and its
 * activated fingerprints, loaded on demand, bounded in size, and dropped when the database
 * announces a change of the license (the triggers of migration 0002, whatever changed it) or
 * when the notification connection is lost. It is used only while the notifications are known to
 * be caught up to within `maxStaleMs` (their heartbeat); otherwise each validation reads the
 * database as before. Expiry by time needs no notification: the status is computed from the stored
 * expiry at every answer.
 *
 * A load that overlaps a notification is answered from but not kept (`generation`), so a change
 * committed during a load is never hidden. A change made by this instance is read from the
 * database for `changingMs` after it starts (`changing(key)`), since on PostgreSQL its
 * notification comes on another connection, maybe just after the commit's answer.
 */
export function createValidationCache(opts: ValidationCacheOptions) {
  const { queries, notifications } = opts;
  const maxNodes = opts.maxNodes ?? 1_000_000;
  const maxStaleMs = opts.maxStaleMs ?? 800;
  const fullLoadNodes = opts.fullLoadNodes ?? 50_000;
  const changingMs = opts.changingMs ?? 2_000;
  const now = opts.now ?? (() => performance.now());

  /** Key -> entry (null: no license has this key), least recently used first. */
  const entries = new Map<string, Entry | null>();
  const loading = new Map<string, { generation: number; promise: Promise<Entry | null> }>();
  const changingUntil = new Map<string, number>();
  let held = 0;
  let generation = 0;
  let closed = false;
  const stats = { hits: 0, loads: 0, direct: 0, invalidations: 0, resets: 0, evictions: 0 };

  const sizeOf = (e: Entry | null) => 1 + (e ? e.nodes.size : 0);

  function drop(key: string) {
    const e = entries.get(key);
    if (e === undefined) return;
    entries.delete(key);
    held -= sizeOf(e);
  }

  const unsubscribe = notifications.subscribe(LICENSE_CHANGED_CHANNEL, {
    onMessage(key) {
      generation++;
      stats.invalidations++;
      drop(key);
    },
    onReset() {
      generation++;
      stats.resets++;
      entries.clear();
      held = 0;
    },
  });

  function keep(key: string, e: Entry | null) {
    drop(key);
    entries.set(key, e);
    held += sizeOf(e);
    for (const [k, v] of entries) {
      if (held <= maxNodes) break;
      entries.delete(k);
      held -= sizeOf(v);
      stats.evictions++;
    }
  }

  async function load(key: string): Promise<Entry | null> {
    stats.loads++;
    const license = await queries.licenseByKey(key);
    if (!license) return null;
    const { id, ...row } = license;
    const nodes = new Map<string, string | null>();
    const complete = license.activeNodes <= fullLoadNodes;
    if (complete) for (const n of await queries.nodesOf(id)) nodes.set(n.fingerprint, n.id);
    return { row, id, nodes, complete };
  }

  /** The entry of `key`, from memory or loaded (one load at a time per key and generation). */
  async function entryOf(key: string): Promise<Entry | null> {
    const cached = entries.get(key);
    if (cached !== undefined) {
      stats.hits++;
      // Most recently used last: delete and set again.
      entries.delete(key);
      entries.set(key, cached);
      return cached;
    }
    const inFlight = loading.get(key);
    if (inFlight && inFlight.generation === generation) return inFlight.promise;
    const started = generation;
    const promise = load(key).then(
      (e) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        if (generation === started && !isChanging(key)) keep(key, e);
        return e;
      },
      (err: unknown) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        throw err;
      },
    );
    loading.set(key, { generation: started, promise });
    return promise;
  }

  function isChanging(key: string) {
    const until = changingUntil.get(key);
    if (until === undefined) return false;
    if (until > now()) return true;
    changingUntil.delete(key);
    return false;
  }

  /** True while notifications are known to be caught up to within the bound. */
  const fresh = () => now() - notifications.freshThrough() <= maxStaleMs;

  return {
    /** What validation needs of `key` (and `fingerprint` on it); undefined when no license has the key. */
    async find(key: string, fingerprint: string | undefined): Promise<ValidationRow | undefined> {
      if (closed || !fresh() || isChanging(key)) {
        stats.direct++;
        return queries.findForValidation(key, fingerprint);
      }
      const e = await entryOf(key);
      if (!e) return undefined;
      if (fingerprint === undefined) return { ...e.row, nodeId: null };
      let nodeId = e.nodes.get(fingerprint);
      if (nodeId === undefined) {
        if (e.complete) return { ...e.row, nodeId: null };
        const started = generation;
        nodeId = (await queries.nodeIdOf(e.id, fingerprint)) ?? null;
        // Kept only when the entry is still the current one and nothing changed meanwhile.
        if (generation === started && entries.get(key) === e) {
          e.nodes.set(fingerprint, nodeId);
          held++;
        }
      }
      return { ...e.row, nodeId };
    },
    /**
     * What `find` would answer from memory alone, changing nothing (not even the statistics or
     * the order of use): undefined when `find` would read the database (not fresh, changing, not
     * loaded, or a node of a large license not looked up yet); null when no license has the key.
     * A caller that answers with it calls `hit(key)`, as `find` counts its hits.
     */
    peek(key: string, fingerprint: string | undefined): ValidationRow | null | undefined {
      if (closed || !fresh() || isChanging(key)) return undefined;
      const e = entries.get(key);
      if (e === undefined) return undefined;
      if (e === null) return null;
      if (fingerprint === undefined) return { ...e.row, nodeId: null };
      const nodeId = e.nodes.get(fingerprint);
      if (nodeId === undefined) return e.complete ? { ...e.row, nodeId: null } : undefined;
      return { ...e.row, nodeId };
    },
    /** Counts an answer given from `peek` as a hit and keeps its license most recently used. */
    hit(key: string) {
      const e = entries.get(key);
      if (e === undefined) return;
      stats.hits++;
      entries.delete(key);
      entries.set(key, e);
    },
    /**
     * This instance starts changing the license of `key` (its transaction has not committed yet):
     * read it from the database until its notification has surely arrived.
     */
    changing(key: string) {
      changingUntil.set(key, now() + changingMs);
      generation++;
      drop(key);
      // Bounded: old marks are swept when many pile up.
      if (changingUntil.size > 10_000) for (const k of [...changingUntil.keys()]) isChanging(k);
    },
    stats: () => ({ ...stats, licenses: entries.size, held }),
    /** Stops listening; later validations read the database. */
    close() {
      closed = true;
      unsubscribe();
      entries.clear();
      held = 0;
    },
  };
}
export type ValidationCache = ReturnType<typeof createValidationCache>;
