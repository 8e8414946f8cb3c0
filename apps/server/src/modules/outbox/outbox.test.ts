import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('outbox', () => {
  it('delivers a row committed while a drain is finishing, without waiting for the next poll', async () => {
    const outbox = t.app.ctx.services.outbox;
    const seen: string[] = [];
    outbox.on('test', async (p) => {
      seen.push(String(p.n));
    });
    for (let i = 0; i < 20; i++) {
      // A drain is under way (it finds nothing) when the next change commits and kicks.
      const first = outbox.kick();
      await outbox.enqueue(t.db, 'test', { n: i });
      const second = outbox.kick();
      await Promise.all([first, second]);
      expect(seen, `row ${i}`).toContain(String(i));
    }
  });

  it('marks delivered rows done and blanks their payload', async () => {
    const outbox = t.app.ctx.services.outbox;
    outbox.on('secret', async () => {});
    await outbox.enqueue(t.db, 'secret', { link: 'https://example.com/login?link=abc' });
    await outbox.kick();
    expect(await outbox.pending()).toBe(0);
    const rows = await t.db.query.outbox.findMany();
    expect(rows.filter((r) => r.kind === 'secret').map((r) => r.payload)).toEqual([{}]);
  });

  it('retries a failed delivery later with back-off', async () => {
    const outbox = t.app.ctx.services.outbox;
    let calls = 0;
    outbox.on('flaky', async () => {
      if (++calls === 1) throw new Error('smtp down');
    });
    await outbox.enqueue(t.db, 'flaky', {});
    await outbox.kick();
    expect(calls).toBe(1);
    expect(await outbox.pending()).toBe(1);
    t.clock.advance(5_000);
    await outbox.kick();
    expect(calls).toBe(2);
    expect(await outbox.pending()).toBe(0);
  });
});
