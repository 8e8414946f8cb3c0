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
