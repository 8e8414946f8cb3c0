import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { outbox } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';

export type OutboxHandler = (payload: Record<string, unknown>) => Promise<void>;

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;

/**
 * The transactional outbox: `enqueue` in the same transaction as the change; the worker claims due
 * rows with a lease (SKIP LOCKED), runs their handler and marks them done, so a crash between commit
 * and send neither loses nor doubles a message, and several instances never run one row twice.
 */
export function createOutboxService(deps: { db: Db; clock: Clock; log: FastifyBaseLogger }) {
  const handlers = new Map<string, OutboxHandler>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function enqueue(tx: Tx, kind: string, payload: Record<string, unknown>) {
    await tx.insert(outbox).values({ kind, payload, availableAt: deps.clock.now() });
  }

  async function claim(limit: number) {
    const now = deps.clock.now();
    return deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(isNull(outbox.doneAt), lte(outbox.availableAt, now)))
        .orderBy(asc(outbox.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outbox)
        .set({ availableAt: new Date(now.getTime() + LEASE_MS), attempts: sql`${outbox.attempts} + 1` })
        .where(inArray(outbox.id, due.map((d) => d.id)))
        .returning();
    });
  }

  /** Runs every due row once; answers how many were handled. */
  async function drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const rows = await claim(20);
      if (rows.length === 0) return handled;
      for (const row of rows) {
        const handler = handlers.get(row.kind);
        try {
          if (!handler) throw new Error(`no outbox handler for ${row.kind}`);
          await handler(row.payload);
          // The payload may hold a secret (a sign-in link): keep no copy once delivered.
          await deps.db.update(outbox).set({ doneAt: deps.clock.now(), payload: {}, lastError: null }).where(eq(outbox.id, row.id));
          handled++;
        } catch (err) {
          const failed = row.attempts >= MAX_ATTEMPTS;
          const backoff = Math.min(3_600_000, 1000 * 2 ** row.attempts);
          deps.log.warn({ err, kind: row.kind, attempts: row.attempts }, 'outbox delivery failed');
          await deps.db
            .update(outbox)
            .set({
              lastError: String((err as Error).message ?? err).slice(0, 500),
              availableAt: new Date(deps.clock.now().getTime() + backoff),
              ...(failed ? { doneAt: deps.clock.now(), payload: {} } : {}),
            })
            .where(eq(outbox.id, row.id));
        }
      }
    }
  }

  /**
   * Drain now (after a commit), coalescing concurrent calls. A kick that arrives while a drain runs
   * asks for one more pass: that drain may already have made its last claim before the caller's
   * row was committed, and the row would otherwise wait for the next poll.
   */
  let again = false;
  function kick(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let handled = 0;
      do {
        again = false;
        handled += await drain();
      } while (again && !stopped);
      return handled;
    })()
      .catch((err) => {
        deps.log.warn({ err }, 'outbox drain failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    on(kind: string, handler: OutboxHandler) {
      handlers.set(kind, handler);
    },
    enqueue,
    kick,
    drain,
    async pending() {
      const [row] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(outbox).where(isNull(outbox.doneAt));
      return row?.n ?? 0;
    },
    start(intervalMs = 2000) {
      stopped = false;
      timer = setInterval(() => void kick(), intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
export type OutboxService = ReturnType<typeof createOutboxService>;
