import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { outbox } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { JOBS, type JobMap, type Jobs } from './jobs';

export type OutboxHandler<M extends JobMap, K extends keyof M> = (payload: z.output<M[K]>) => Promise<void>;

/** How a kind retries: the wait after each failed attempt, then what to do when they have run out. */
export type RetryPolicy<P> = {
  /** Milliseconds to wait after attempt n fails (n from 1); after the last, the row gives up. */
  delaysMs: readonly number[];
  /** Called once when the row gives up (its last attempt failed). */
  onGiveUp?: (payload: P, err: unknown) => Promise<void>;
};

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;

/**
 * The transactional outbox: `enqueue` in the same transaction as the change; the worker claims due
 * rows with a lease (SKIP LOCKED), runs their handler and marks them done, so a crash between commit
 * and send neither loses nor doubles a message, and several instances never run one row twice.
 * The kinds and their payloads are one typed map (`jobs.ts`); tests may pass a map of their own.
 */
export function createOutboxService<M extends JobMap = Jobs>(deps: { db: Db; clock: Clock; log: FastifyBaseLogger; jobs?: M }) {
  const jobs = (deps.jobs ?? JOBS) as M;
  const handlers = new Map<string, (payload: unknown) => Promise<void>>();
  const policies = new Map<string, RetryPolicy<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  /** Queues `kind` in the caller's transaction; a payload its schema refuses throws before the insert. */
  async function enqueue<K extends keyof M & string>(
    tx: Tx,
    kind: K,
    payload: z.input<M[K]>,
    options: { orderingKey?: string } = {},
  ) {
    const parsed = jobs[kind]!.safeParse(payload);
    if (!parsed.success) throw new Error(`invalid ${kind} job: ${parsed.error.message}`);
    // The input is stored (not the parsed output), so the handler's parse sees what was enqueued.
    await tx.insert(outbox).values({
      kind,
      payload: payload as Record<string, unknown>,
      availableAt: deps.clock.now(),
      orderingKey: options.orderingKey ?? null,
    });
  }

  /**
   * Claims due rows of the kinds this instance handles. An instance never takes a row it cannot
   * run: during a rolling deploy an older instance leaves a newer kind to the instances that know it
   * (such a row waits, counted in the backlog, instead of failing its attempts away).
   */
  async function claim(limit: number) {
    const now = deps.clock.now();
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return [];
    return deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(
          and(
            isNull(outbox.doneAt),
            lte(outbox.availableAt, now),
            inArray(outbox.kind, kinds),
            // A row waits for the earlier rows of its ordering key (and so for their retries).
            sql`(${outbox.orderingKey} is null or not exists (select 1 from ${outbox} earlier where earlier.ordering_key = ${outbox.orderingKey} and earlier.done_at is null and earlier.id < ${outbox.id}))`,
          ),
        )
        .orderBy(asc(outbox.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outbox)
        .set({ availableAt: new Date(now.getTime() + LEASE_MS), attempts: sql`${outbox.attempts} + 1` })
        .where(
          inArray(
            outbox.id,
            due.map((d) => d.id),
          ),
        )
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
          const schema = jobs[row.kind];
          if (!schema) throw new Error(`unknown outbox job kind ${row.kind}`);
          await handler(schema.parse(row.payload));
          // The payload may hold a secret (a sign-in link): keep no copy once delivered.
          await deps.db
            .update(outbox)
            .set({ doneAt: deps.clock.now(), payload: {}, lastError: null })
            .where(eq(outbox.id, row.id));
          handled++;
        } catch (err) {
          const policy = policies.get(row.kind);
          const failed = policy ? row.attempts > policy.delaysMs.length : row.attempts >= MAX_ATTEMPTS;
          const backoff = policy ? (policy.delaysMs[row.attempts - 1] ?? 0) : Math.min(3_600_000, 1000 * 2 ** row.attempts);
          deps.log.warn({ err, kind: row.kind, attempts: row.attempts }, 'outbox delivery failed');
          if (failed && policy?.onGiveUp) {
            try {
              await policy.onGiveUp(jobs[row.kind]!.parse(row.payload), err);
            } catch (giveUpErr) {
              deps.log.error({ err: giveUpErr, kind: row.kind }, 'outbox give-up handler failed');
            }
          }
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
    on<K extends keyof M & string>(kind: K, handler: OutboxHandler<M, K>, retry?: RetryPolicy<z.output<M[K]>>) {
      handlers.set(kind, handler as (payload: unknown) => Promise<void>);
      if (retry) policies.set(kind, retry as RetryPolicy<unknown>);
    },
    enqueue,
    kick,
    drain,
    async pending() {
      const [row] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(outbox)
        .where(isNull(outbox.doneAt));
      return row?.n ?? 0;
    },
    /** Deletes rows done before `before` (retention); answers how many. */
    async pruneDone(before: Date): Promise<number> {
      const gone = await deps.db
        .delete(outbox)
        .where(and(isNotNull(outbox.doneAt), lt(outbox.doneAt, before)))
        .returning({ id: outbox.id });
      return gone.length;
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
export type OutboxService<M extends JobMap = Jobs> = ReturnType<typeof createOutboxService<M>>;
