import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISIBLE_TEXT_MESSAGE } from '@portal/contract';
import { users } from '../../src/db/schema/index';
import { buildTestApp, type TestApp } from '../helpers';

/** Issue 14, item 6: names (shown on invoices under "Billed to") refuse invisible formatting characters. */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.signIn('names@example.com', { onboard: false });
});
afterAll(() => t.close());

const stored = async () => {
  const [row] = await t.db
    .select({ fname: users.fname, lname: users.lname, company: users.company })
    .from(users)
    .where(eq(users.email, 'names@example.com'));
  return row!;
};
const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, string>) =>
  t.app.inject({ method, url, headers: { cookie }, payload });

const INVISIBLE: [string, string][] = [
  ['a right-to-left override', 'Ann\u202Egnp.exe'],
  ['a left-to-right embedding', '\u202AAnn'],
  ['a right-to-left isolate', 'Ann\u2067x\u2069'],
  ['a right-to-left mark', 'Ann\u200F'],
  ['an Arabic letter mark', '\u061CAnn'],
  ['a zero-width space', 'An\u200Bn'],
  ['a zero-width joiner between Latin letters', 'An\u200Dn'],
  ['a zero-width non-joiner at the end', 'Ann\u200C'],
  ['a word joiner', 'An\u2060n'],
  ['a byte-order mark inside the name', 'An\uFEFFn'],
  ['a soft hyphen', 'An\u00ADn'],
  ['a tab', 'An\tn'],
];

describe('names: invisible formatting characters', () => {
  for (const field of ['fname', 'lname', 'company'] as const) {
    it.each(INVISIBLE)(
      `refuses ${field} with %s at onboarding and in the profile (400, nothing stored)`,
      async (_what, value) => {
        const before = await stored();
        const body = { fname: 'Ann', lname: 'Other', [field]: value };
        for (const [method, url] of [
          ['POST', '/api/users/onboarding'],
          ['PATCH', '/api/users/profile'],
        ] as const) {
          const res = await send(method, url, body);
          expect(res.statusCode, `${method} ${url}`).toBe(400);
          expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: VISIBLE_TEXT_MESSAGE });
          expect(res.json().issues[0].path).toEqual([field]);
        }
        expect(await stored()).toEqual(before);
      },
    );
  }

  it.each([
    ['accented Latin', 'Zoë', 'Ångström'],
    ['Persian with a zero-width non-joiner inside a word', 'مهر\u200Cداد', 'می\u200Cخواهم'],
    ['Devanagari with a zero-width joiner', 'क्\u200Dष', 'शर्मा'],
    ['an emoji sequence joined by a zero-width joiner', 'Ann 👩\u200D💻', 'Other'],
  ])('accepts names written in %s', async (_what, fname, lname) => {
    const res = await send('POST', '/api/users/onboarding', { fname, lname });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toMatchObject({ fname, lname });
  });
});

describe('node hostnames (shown to staff in the console and to the customer): invisible formatting characters', () => {
  let licenseKey: string;
  beforeAll(async () => {
    const issued = await t.app.ctx.services.licenses.issueForEmail({
      email: 'names@example.com',
      maxNodes: 50,
      expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      actor: 'test',
    });
    licenseKey = issued.key;
  });
  const nodesOf = async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/licenses/${licenseKey}/nodes`, headers: { cookie } });
    return res.json().items as Array<{ fingerprint: string; hostname: string | null }>;
  };

  it.each(INVISIBLE)('refuses a hostname with %s (400, no node activated)', async (_what, value) => {
    const before = await nodesOf();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${licenseKey}/activate`,
      payload: { fingerprint: 'fp-hygiene', hostname: `evil${value}.exe` },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: VISIBLE_TEXT_MESSAGE });
    expect(res.json().issues[0].path).toEqual(['hostname']);
    expect(await nodesOf()).toEqual(before);
  });

  it('accepts an ordinary and an internationalised hostname', async () => {
    for (const [fingerprint, hostname] of [
      ['fp-plain', 'pve-node-01.example.com'],
      ['fp-idn', 'узел-1.пример.рф'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/licenses/${licenseKey}/activate`,
        payload: { fingerprint, hostname },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await nodesOf()).map((n) => n.hostname).sort()).toEqual(['pve-node-01.example.com', 'узел-1.пример.рф']);
  });
});
