import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';

/** Issue 14, item 3: a signed ISO URL stops working when the account it was issued to is gone. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  mkdirSync(t.config.releases.dir, { recursive: true });
  writeFileSync(path.join(t.config.releases.dir, 'pce-3.0.0.iso'), Buffer.alloc(4096, 3));
});
afterAll(() => t.close());

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const download = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url: pathOf(url) });

async function issue(cookie: string, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/api/products/pce/download${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ url: string }>().url;
}

describe('signed download URLs of a deleted account', () => {
  it('serve the file while the account exists, and are refused (403) at once after it is deleted', async () => {
    const cookie = await t.signIn('leaving@example.com');
    const url = await issue(cookie);
    const refreshed = await issue(cookie, '?refresh=true');
    expect((await download(url)).statusCode).toBe(200);
    expect((await download(refreshed)).statusCode).toBe(200);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie },
    });
    expect(gone.statusCode, gone.body).toBe(204);

    for (const u of [url, refreshed]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await download(u, method);
        expect(res.statusCode, `${method} ${u}`).toBe(403);
        expect(res.headers['content-disposition']).toBeUndefined();
        if (method === 'GET') {
          expect(res.json()).toEqual({
            message: 'This download link is no longer valid: its account was deleted.',
            code: 'FORBIDDEN',
          });
        }
      }
    }
  });

  it('are refused for a user id the portal does not know', async () => {
    const info = await t.app.ctx.services.products.getDownload(randomUUID(), { refresh: false });
    const res = await download(info.url);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it("keep serving another customer's URLs", async () => {
    const cookie = await t.signIn('staying@example.com');
    const res = await download(await issue(cookie));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(4096);
  });
});
