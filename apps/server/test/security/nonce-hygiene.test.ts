import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORABLE_TEXT_MESSAGE } from '@portal/contract';
import { users } from '../../src/db/schema/index';
import { buildTestApp, type TestApp } from '../helpers';

/** Issue 14, item 6: the validate nonce, echoed in the signed answer, follows the storable-text rules. */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.signIn('nonce@example.com');
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'nonce@example.com'));
  ({ key } = await t.app.ctx.services.licenses.issue(t.db, {
    userId: user!.id,
    subscriptionId: null,
    maxNodes: 1,
    expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
    actor: 'test',
  }));
});
afterAll(() => t.close());

const validate = (nonce: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/licenses/${key}/validate`,
    headers: { 'content-type': 'application/json' },
    // JSON.stringify escapes a lone surrogate as \udXXX, which JSON.parse turns back into one.
    payload: JSON.stringify({ nonce }),
  });

describe('POST /api/licenses/{key}/validate: nonce', () => {
  it.each([
    ['a NUL character', 'abc\u0000def'],
    ['a lone high surrogate', 'abc\uD800'],
    ['a lone low surrogate', '\uDC00abc'],
  ])('refuses a nonce with %s (400), signing and echoing nothing', async (_what, nonce) => {
    const res = await validate(nonce);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: STORABLE_TEXT_MESSAGE });
    expect(res.json().issues[0].path).toEqual(['nonce']);
    expect(res.body).not.toContain('abc');
  });

  it('echoes any other text, including characters outside the BMP', async () => {
    const nonce = 'n-😀-ü-\uD83D\uDE00';
    const res = await validate(nonce);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, nonce });
  });
});
