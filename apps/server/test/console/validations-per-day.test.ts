import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '@portal/contract';
import { validationDays } from '../../src/db/schema/index';
import { createLastSeenBuffer } from '../../src/modules/licenses/last-seen-buffer';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { settle } from '../fuzz/db-state';
import { rawRequest, requestBytes } from '../raw-http';
import { wellFormedKey } from '../fuzz/arbitraries';
import { consoleFixtures, type ConsoleFixtures } from './fixtures';

/**
 * Validations per day on the console's overview: counted in memory on both validation paths (the
 * node:http fast path and the Fastify route), written with the batched last-seen flush, never a
 * write per validation.
 */

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let staff: string;
let port: number;

beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('viewer@vendor.example', 'support');
  staff = await t.signInStaff('viewer@vendor.example');
  fx = await consoleFixtures(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await settle(t);
});
afterAll(() => t?.close());

const days = () => t.db.select().from(validationDays).orderBy(validationDays.day);

/** Over a real connection, so the fast path answers when memory can (notifications caught up, ADR 023). */
async function validateOverHttp(key: string, body: object): Promise<{ valid: boolean }> {
  while (performance.now() - t.database.notifications.freshThrough() > 200) await new Promise((r) => setTimeout(r, 10));
  const res = await rawRequest(
    port,
    requestBytes(port, {
      path: `/api/licenses/${key}/validate`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  expect(res.status).toBe(200);
  return JSON.parse(res.body.toString('utf8')) as { valid: boolean };
}

async function validateInjected(key: string, body: object): Promise<{ valid: boolean }> {
  const res = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('validations per day', () => {
  it('counts every answer of both paths in memory and writes them only with the batched flush', async () => {
    const key = fx.a.ids.licenseKey!;
    // A license this instance just changed is read from the database for 2 s (validation-cache.ts).
    await new Promise((r) => setTimeout(r, 2_100));
    const before = await days();
    const fastBefore = t.app.ctx.validationFastPath()!.answered;
    // The first validation of a key reads it into memory; the later ones are answered from there.
    const answers = [
      await validateOverHttp(key, {}),
      await validateOverHttp(key, {}),
      await validateOverHttp(key, { fingerprint: 'never-activated' }),
      await validateInjected(key, {}),
      await validateInjected(wellFormedKey('ZZZZZZZZZZZZZZZZZZZZZZZ2'), {}),
    ];
    const valid = answers.filter((a) => a.valid).length;
    expect(valid).toBe(3);
    // The connections' validations were answered from memory, before Fastify.
    expect(t.app.ctx.validationFastPath()!.answered).toBeGreaterThan(fastBefore);
    // Nothing written by the validations themselves.
    expect(await days()).toEqual(before);

    await t.app.ctx.services.licenses.flushLastSeen();
    const today = t.clock.now().toISOString().slice(0, 10);
    const row = (await days()).find((d) => d.day === today);
    const was = before.find((d) => d.day === today);
    expect(row).toEqual({ day: today, validations: (was?.validations ?? 0) + 5, valid: (was?.valid ?? 0) + 3 });
  });

  it('puts each validation on its UTC day and shows the last 30 days on the overview', async () => {
    const key = fx.a.ids.licenseKey!;
    await validateInjected(key, {});
    t.clock.advance(86_400_000);
    await validateInjected(key, {});
    await validateInjected(key, {});
    await t.app.ctx.services.licenses.flushLastSeen();

    // A day later the staff session has idled out.
    staff = await t.signInStaff('viewer@vendor.example');
    const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: { cookie: staff } });
    expect(res.statusCode, res.body).toBe(200);
    const o: Overview = res.json();
    expect(o.days).toHaveLength(30);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(o.days.at(-1)).toEqual({ day: today, validations: 2, valid: 2 });
    const stored = await days();
    for (const d of o.days) {
      const row = stored.find((r) => r.day === d.day);
      expect(d).toEqual({ day: d.day, validations: row?.validations ?? 0, valid: row?.valid ?? 0 });
    }
    expect(o.days.reduce((s, d) => s + d.validations, 0)).toBe(stored.reduce((s, d) => s + d.validations, 0));
  });
});

describe('the buffer', () => {
  it('adds to a day other instances wrote to, and keeps what it could not write for the next flush', async () => {
    const warnings: string[] = [];
    let fail = true;
    const db = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === 'insert' && fail) {
          return () => {
            throw new Error('database away');
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const buffer = createLastSeenBuffer({ db, log: { warn: (_d, m) => warnings.push(m) }, flushMs: 60_000 });
    const at = new Date('2031-05-06T23:59:59.999Z');
    buffer.count(at, true);
    buffer.count(at, false);
    buffer.count(new Date('2031-05-07T00:00:00.000Z'), true);
    await buffer.flush();
    expect(warnings).toEqual(['could not write validation counts; keeping them for the next flush']);
    buffer.count(at, true);
    fail = false;
    await buffer.flush();
    // Another instance's counts of a day: added to, not replaced.
    await t.db.insert(validationDays).values({ day: '2031-05-08', validations: 10, valid: 4 });
    buffer.count(new Date('2031-05-08T12:00:00.000Z'), false);
    await buffer.close();
    const rows = (await days()).filter((d) => d.day.startsWith('2031-05'));
    expect(rows).toEqual([
      { day: '2031-05-06', validations: 3, valid: 2 },
      { day: '2031-05-07', validations: 1, valid: 1 },
      { day: '2031-05-08', validations: 11, valid: 4 },
    ]);
  });
});
