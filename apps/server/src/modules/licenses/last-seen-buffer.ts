import type { Db } from '../../db/client';
import { LAST_SEEN_RESOLUTION_MS } from './license-rules';
import { licensesRepository as repo, type NodeRow } from './licenses.repository';

export type LastSeenBufferDeps = {
  db: Db;
  log: { warn: (details: Record<string, unknown>, message: string) => void };
  /** How long validation buffers last-seen times before writing them in one statement. */
  flushMs?: number;
  /** Rows a statement of a flush writes at most (see ROWS_PER_STATEMENT). */
  rowsPerStatement?: number;
  /** Nodes whose stored time is remembered at most (see `stored`); past it the memory starts again. */
  maxRemembered?: number;
};

/**
 * Rows per statement of a flush, with a turn of the event loop between statements. A statement
 * holds the event loop while it runs on the embedded database, which runs in this thread: 10k rows
 * in one statement held it for 150 ms to 2 s, so validations waited behind it. PostgreSQL runs it
 * in its own process, so 500 rows a statement (two array parameters each) cost the server little.
 * On the embedded database 500 rows whose times moved on held it for 20 to 65 ms, which steady
 * traffic met as its slowest answers; 100 rows 3 to 5 ms (ADR 046), still the p99 of a steady
 * 1,000 req/s on a slower machine; 25 rows about 1.3 ms (ADR 047).
 */
export const ROWS_PER_STATEMENT = { postgres: 500, inThread: 25 };
const DAY_MS = 86_400_000;
/** Stored times are kept as whole seconds since this instant: small integers, which V8 stores unboxed. */
const SECONDS_FROM = Date.UTC(2020, 0, 1);

type DayCount = { all: number; valid: number };

/**
 * Last-seen times from validation, written in batches: a busy fleet validating every minute must
 * not turn each check into a write. Per instance; a lost batch only loses recency. The number of
 * validations per UTC day (the console's overview) rides along: counted in memory, added to
 * `validation_days` by the same flush.
 */
export function createLastSeenBuffer(deps: LastSeenBufferDeps) {
  const flushMs = deps.flushMs ?? 5_000;
  const rowsPerStatement = deps.rowsPerStatement ?? ROWS_PER_STATEMENT.postgres;
  const maxRemembered = deps.maxRemembered ?? 1_000_000;
  const pending = new Map<string, Date>();
  /**
   * Node id -> its stored last-seen time as the last flush that sent it found it (seconds from
   * SECONDS_FROM, rounded down), whoever wrote it. A later note within LAST_SEEN_RESOLUTION_MS of
   * it would write nothing, so it is not buffered at all: a flush sends each node once, then only
   * when its stored time is due to move on (about a twelfth of a chatty fleet in each 5 s flush),
   * and each of its statements holds the embedded database's thread for less. The database stays
   * the judge: a node another instance wrote since is sent once more, skipped, and learnt.
   */
  const stored = new Map<string, number>();
  const days = new Map<string, DayCount>();
  // The day being counted, so a count is one comparison and two increments.
  let day: { start: number; end: number; count: DayCount } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  /** Writes every buffered time, rowsPerStatement at a time; what failed is kept for the next try. */
  async function writeLastSeen() {
    const batch = [...pending];
    pending.clear();
    for (let from = 0; from < batch.length; from += rowsPerStatement) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        const rows = batch.slice(from, from + rowsPerStatement);
        remember(rows, await repo.updateLastSeen(deps.db, rows));
      } catch (err) {
        const unwritten = batch.slice(from);
        deps.log.warn({ err, nodes: unwritten.length }, 'could not write last-seen times; keeping them for the next flush');
        for (const [id, at] of unwritten) {
          const prev = pending.get(id);
          if (!prev || prev < at) pending.set(id, at);
        }
        return;
      }
    }
  }

  /** Remembers the stored times a statement answered (seconds since 1970) for the rows it was sent. */
  function remember(sent: Array<[string, Date]>, found: Array<{ id: string; at: number }>) {
    if (stored.size + found.length > maxRemembered) stored.clear();
    // Keyed by the noted ids, which are the validation cache's own strings, not the statement's
    // copies of them: 1M remembered nodes then take about 21 MB.
    const noted = new Map(sent.map(([id]) => [id, id]));
    for (const { id, at } of found) stored.set(noted.get(id) ?? id, Math.floor(at - SECONDS_FROM / 1000));
  }

  /** Adds the counted validations to their days; what failed is counted again into the next flush. */
  async function writeDayCounts() {
    const counted = [...days];
    days.clear();
    day = undefined;
    try {
      await repo.addValidationCounts(deps.db, counted);
    } catch (err) {
      deps.log.warn({ err, days: counted.length }, 'could not write validation counts; keeping them for the next flush');
      for (const [d, c] of counted) {
        const now = days.get(d);
        if (now) {
          now.all += c.all;
          now.valid += c.valid;
        } else days.set(d, c);
      }
    }
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pending.size > 0) await writeLastSeen();
      if (days.size > 0) await writeDayCounts();
    });
    return flushing;
  }

  function arm() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushMs);
    timer.unref();
  }

  /** Counts one validation answered at `at` (valid or not); never waits. */
  function count(at: Date, valid: boolean): void {
    const t = at.getTime();
    if (!day || t < day.start || t >= day.end) {
      const start = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
      const key = new Date(start).toISOString().slice(0, 10);
      let c = days.get(key);
      if (!c) days.set(key, (c = { all: 0, valid: 0 }));
      day = { start, end: start + DAY_MS, count: c };
    }
    day.count.all++;
    if (valid) day.count.valid++;
    // While the app closes, nothing would flush later.
    if (closed) void flush();
    else arm();
  }

  /** Notes that `nodeId` was seen at `at`; resolves at once unless the buffer is closed. */
  function note(nodeId: string, at: Date): Promise<void> | undefined {
    const known = stored.get(nodeId);
    // Rounded down when remembered, so this never skips a time the database would take.
    if (known !== undefined && at.getTime() - (SECONDS_FROM + known * 1000) < LAST_SEEN_RESOLUTION_MS) return undefined;
    const prev = pending.get(nodeId);
    if (!prev || prev < at) pending.set(nodeId, at);
    // While the app closes, nothing would flush later: write before answering.
    if (closed) return flush();
    arm();
    return undefined;
  }

  return {
    note,
    count,
    flush,
    /** The node's last-seen time, counting a buffered one not yet written. */
    lastSeenOf(n: NodeRow): Date {
      const p = pending.get(n.id);
      return p && p > n.lastSeenAt ? p : n.lastSeenAt;
    },
    /** A released node has nothing left to update. */
    forget(nodeId: string) {
      pending.delete(nodeId);
      stored.delete(nodeId);
    },
    /** Flushes pending times (and counts) and stops buffering (later notes write at once); call before the database closes. */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
export type LastSeenBuffer = ReturnType<typeof createLastSeenBuffer>;
