import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { createOutboxService } from './outbox.service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const JOBS = { 'test.step': z.object({ lane: z.string(), n: z.number().int() }) };
const testOutbox = () => createOutboxService({ db: t.db, clock: t.clock, log: t.app.log, jobs: JOBS });

describe('ordering keys', () => {
  it("a row waits while an earlier row of its key retries; other keys' rows go ahead", async () => {
    const outbox = testOutbox();
    const seen: string[] = [];
    let failFirst = true;
    outbox.on('test.step', async (p) => {
      if (p.lane === 'a' && p.n === 1 && failFirst) throw new Error('receiver down');
      seen.push(`${p.lane}${p.n}`);
    });
    for (const [lane, n] of [
      ['a', 1],
      ['a', 2],
      ['b', 1],
      ['a', 3],
    ] as const) {
      await outbox.enqueue(t.db, 'test.step', { lane, n }, { orderingKey: `order-test:${lane}` });
    }
    await outbox.kick();
    expect(seen).toEqual(['b1']);
    t.clock.advance(60_000);
    await outbox.kick();
    // Still failing: a2 and a3 have not run before a1.
    expect(seen).toEqual(['b1']);
    failFirst = false;
    t.clock.advance(3_600_000);
    await outbox.kick();
    expect(seen).toEqual(['b1', 'a1', 'a2', 'a3']);
  });
});

describe('retry policies', () => {
  it("waits the policy's delays, then gives up once, calling onGiveUp with the payload; the next row of the key then runs", async () => {
    const outbox = testOutbox();
    const attempts: number[] = [];
    const gaveUp: number[] = [];
    const start = t.clock.now().getTime();
    outbox.on(
      'test.step',
      async (p) => {
        if (p.n === 1) {
          attempts.push(t.clock.now().getTime() - start);
          throw new Error('always');
        }
        attempts.push(-1);
      },
      { delaysMs: [1000, 5000], onGiveUp: async (p) => void gaveUp.push(p.n) },
    );
    await outbox.enqueue(t.db, 'test.step', { lane: 'p', n: 1 }, { orderingKey: 'policy-test' });
    await outbox.enqueue(t.db, 'test.step', { lane: 'p', n: 2 }, { orderingKey: 'policy-test' });
    await outbox.kick();
    t.clock.advance(999);
    await outbox.kick();
    expect(attempts).toEqual([0]);
    t.clock.advance(1);
    await outbox.kick();
    t.clock.advance(5000);
    await outbox.kick();
    expect(attempts).toEqual([0, 1000, 6000, -1]);
    expect(gaveUp).toEqual([1]);
  });
});

describe('retention', () => {
  it('deletes rows done before the cut-off and keeps pending and recent ones', async () => {
    const outbox = testOutbox();
    outbox.on('test.step', async () => {});
    await outbox.enqueue(t.db, 'test.step', { lane: 'r', n: 1 });
    await outbox.kick();
    t.clock.advance(10 * 86_400_000);
    await outbox.enqueue(t.db, 'test.step', { lane: 'r', n: 2 });
    await outbox.kick();
    const pendingBefore = await outbox.pending();
    const pruned = await outbox.pruneDone(new Date(t.clock.now().getTime() - 86_400_000));
    expect(pruned).toBeGreaterThanOrEqual(1);
    const rows = await t.db.query.outbox.findMany();
    expect(rows.some((r) => r.doneAt && r.doneAt.getTime() === t.clock.now().getTime())).toBe(true);
    expect(rows.every((r) => !r.doneAt || r.doneAt.getTime() >= t.clock.now().getTime() - 86_400_000)).toBe(true);
    expect(await outbox.pending()).toBe(pendingBefore);
  });
});
