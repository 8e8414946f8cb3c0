import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outbox as outboxTable } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { createOutboxService } from './outbox.service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Kinds of this file only, on a second outbox over the same database (the app's is not kicked here). */
const TEST_JOBS = {
  'test.count': z.object({ n: z.number().int() }),
  'test.secret': z.object({ link: z.string().url() }),
  'test.flaky': z.object({}),
  'test.dated': z.object({ at: z.iso.datetime().transform((s) => new Date(s)) }),
};
const testOutbox = () => createOutboxService({ db: t.db, clock: t.clock, log: t.app.log, jobs: TEST_JOBS });

describe('outbox', () => {
  it('delivers a row committed while a drain is finishing, without waiting for the next poll', async () => {
    const outbox = testOutbox();
    const seen: string[] = [];
    outbox.on('test.count', async (p) => {
      seen.push(String(p.n));
    });
    for (let i = 0; i < 20; i++) {
      // A drain is under way (it finds nothing) when the next change commits and kicks.
      const first = outbox.kick();
      await outbox.enqueue(t.db, 'test.count', { n: i });
      const second = outbox.kick();
      await Promise.all([first, second]);
      expect(seen, `row ${i}`).toContain(String(i));
    }
  });

  it('marks delivered rows done and blanks their payload', async () => {
    const outbox = testOutbox();
    outbox.on('test.secret', async () => {});
    await outbox.enqueue(t.db, 'test.secret', { link: 'https://example.com/login?link=abc' });
    await outbox.kick();
    expect(await outbox.pending()).toBe(0);
    const rows = await t.db.query.outbox.findMany();
    expect(rows.filter((r) => r.kind === 'test.secret').map((r) => r.payload)).toEqual([{}]);
  });

  it('retries a failed delivery later with back-off', async () => {
    const outbox = testOutbox();
    let calls = 0;
    outbox.on('test.flaky', async () => {
      if (++calls === 1) throw new Error('smtp down');
    });
    await outbox.enqueue(t.db, 'test.flaky', {});
    await outbox.kick();
    expect(calls).toBe(1);
    expect(await outbox.pending()).toBe(1);
    t.clock.advance(5_000);
    await outbox.kick();
    expect(calls).toBe(2);
    expect(await outbox.pending()).toBe(0);
  });
});

describe('the lease of a claimed row', () => {
  it('keeps a row another instance claimed (and died holding) for a minute, then lets the next instance take it', async () => {
    const dead = testOutbox();
    let claimed!: () => void;
    const claimedByDead = new Promise<void>((resolve) => (claimed = resolve));
    // The first instance claims the row and never finishes it: its handler hangs, as a killed process would.
    dead.on('test.count', () => {
      claimed();
      return new Promise<void>(() => {});
    });
    const next = testOutbox();
    const seen: number[] = [];
    next.on('test.count', async (p) => {
      seen.push(p.n);
    });
    await next.enqueue(t.db, 'test.count', { n: 4242 });
    void dead.kick();
    await claimedByDead;

    await next.kick();
    t.clock.advance(59_000);
    await next.kick();
    expect(seen, 'taken again while the lease holds').toEqual([]);
    t.clock.advance(1_000);
    await next.kick();
    expect(seen).toEqual([4242]);
    const [row] = (await t.db.query.outbox.findMany()).filter((r) => r.kind === 'test.count' && r.attempts === 2);
    expect(row?.doneAt).not.toBeNull();
  });
});

describe('typed jobs', () => {
  it('types enqueue and handlers by the job map: an unknown kind or a wrong payload does not compile', async () => {
    const outbox = testOutbox();
    const compileOnly = async () => {
      // @ts-expect-error an unknown kind is a type error
      await outbox.enqueue(t.db, 'test.unknown', {});
      // @ts-expect-error the payload must match the kind's schema
      await outbox.enqueue(t.db, 'test.count', { n: 'one' });
      // @ts-expect-error a handler for an unknown kind is a type error
      outbox.on('test.unknown', async () => {});
      const app = t.app.ctx.services.outbox;
      // @ts-expect-error the application's map has no such kind either
      await app.enqueue(t.db, 'mail', {});
      // @ts-expect-error an e-mail names a template the map knows, with that template's data
      await app.enqueue(t.db, 'email', { to: 'a@example.com', template: 'receipt', data: { url: 'https://x.test' } });
    };
    expect(compileOnly).toBeTypeOf('function');
  });

  it('refuses a payload its schema refuses when enqueued, and writes nothing', async () => {
    const outbox = testOutbox();
    const before = (await t.db.select().from(outboxTable)).length;
    await expect(outbox.enqueue(t.db, 'test.count', { n: 1.5 })).rejects.toThrow(/invalid test\.count job/);
    expect(await t.db.select().from(outboxTable)).toHaveLength(before);
  });

  it('hands the handler the parsed payload (a date string becomes a Date)', async () => {
    const outbox = testOutbox();
    const got: Date[] = [];
    outbox.on('test.dated', async (p) => {
      got.push(p.at);
    });
    await outbox.enqueue(t.db, 'test.dated', { at: '2026-01-02T03:04:05.000Z' });
    await outbox.kick();
    expect(got.map((d) => d.toISOString())).toEqual(['2026-01-02T03:04:05.000Z']);
  });

  it('keeps a row whose stored payload no longer parses (retried, never handed over half-read)', async () => {
    const outbox = testOutbox();
    const seen: unknown[] = [];
    outbox.on('test.count', async (p) => {
      seen.push(p);
    });
    await t.db.insert(outboxTable).values({ kind: 'test.count', payload: { n: 'x' }, availableAt: t.clock.now() });
    await outbox.kick();
    expect(seen).toEqual([]);
    const [row] = (await t.db.query.outbox.findMany()).filter((r) => r.kind === 'test.count' && r.doneAt === null);
    expect(row?.lastError).toMatch(/n/);
    await t.db.delete(outboxTable);
  });

  it('leaves a row of a kind it has no handler for to an instance that has one (rolling deploys)', async () => {
    const other = testOutbox();
    await other.enqueue(t.db, 'test.count', { n: 99 });
    await t.app.ctx.services.outbox.kick();
    const [waiting] = (await t.db.query.outbox.findMany()).filter((r) => r.kind === 'test.count' && r.doneAt === null);
    expect(waiting).toMatchObject({ attempts: 0, lastError: null, payload: { n: 99 } });
    const seen: number[] = [];
    other.on('test.count', async (p) => {
      seen.push(p.n);
    });
    await other.kick();
    expect(seen).toEqual([99]);
    await t.db.delete(outboxTable);
  });

  it('sends an e-mail queued as a rendered message by an earlier release (rows already in a database)', async () => {
    const outbox = t.app.ctx.services.outbox;
    await t.db.insert(outboxTable).values({
      kind: 'email',
      payload: { to: 'old@example.com', subject: 'Queued before', text: 'plain', html: '<p>plain</p>' },
      availableAt: t.clock.now(),
    });
    await outbox.kick();
    expect(t.mailer.messages.filter((m) => m.to === 'old@example.com')).toEqual([
      { to: 'old@example.com', subject: 'Queued before', text: 'plain', html: '<p>plain</p>' },
    ]);
  });
});
