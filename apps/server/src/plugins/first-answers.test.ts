import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FIRST_ANSWERS_ELEMENT_ID, pageFirstReads, START_UP_READS, subscriptionInvoicesPath } from '@portal/contract';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { addCard, checkout, signIn } from '../modules/billing/billing-test-helpers';
import { readFirstAnswers, withFirstAnswers, type FirstAnswers } from './first-answers';

/** A web build as the web app's Vite build writes its two pages (without compressed copies). */
const html = '<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div></body></html>';
const appHtml = html.replace('<title>', '<link rel="modulepreload" crossorigin href="/assets/app-layout-abc.js"><title>');

let t: TestApp;
let dist: string;
let buyer: { cookie: string; stripeId: string };
let other: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'portal-first-answers-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'app.html'), appHtml);
  t = await buildTestApp({}, { webDist: dist });
  const cookie = await signIn(t, 'answers-buyer@example.com');
  expect((await addCard(t, cookie)).statusCode).toBe(201);
  const bought = await checkout(t, cookie, { interval: 'month', quantity: 2 });
  expect(bought.statusCode, bought.body).toBe(201);
  buyer = { cookie, stripeId: bought.json().subscription.stripeId };
  other = await signIn(t, 'answers-other@example.com');
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const ELEMENT = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">(.*?)</script>`, 's');

/** The answers a served page carries, or undefined when it carries none. */
function answersIn(page: string): FirstAnswers | undefined {
  const json = ELEMENT.exec(page)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as FirstAnswers);
}

const open = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

describe('a signed-in page carries the answers of its first reads', () => {
  it("billing: the session, the configuration, the page's reads and each subscription's invoices, as the API answers them", async () => {
    const res = await open('/app/billing', { cookie: buyer.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const answers = answersIn(res.body)!;
    const reads = pageFirstReads('/app/billing', new URLSearchParams())!;
    expect(Object.keys(answers).sort()).toEqual(
      [...START_UP_READS, ...reads.paths, subscriptionInvoicesPath(buyer.stripeId)].sort(),
    );
    for (const [readPath, answer] of Object.entries(answers)) {
      const own = await t.app.inject({ method: 'GET', url: `/api${readPath}`, headers: { cookie: buyer.cookie } });
      expect(answer, readPath).toEqual({ status: 200, body: own.json() });
    }
    // The rest of the page is the build's own.
    expect(res.body.replace(ELEMENT, '')).toBe(appHtml);
  });

  it('is kept nowhere and never answered to another cookie', async () => {
    const res = await open('/app/dashboard', { cookie: buyer.cookie });
    expect(answersIn(res.body)).toBeDefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers.vary)).toMatch(/\bCookie\b/);
    expect(String(res.headers.vary)).toMatch(/\bAccept-Encoding\b/);
  });

  it('is compressed for a client that accepts it', async () => {
    const res = await open('/app/licenses', { cookie: buyer.cookie, 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    const page = brotliDecompressSync(res.rawPayload).toString('utf8');
    expect(Object.keys(answersIn(page)!)).toContain('/licenses/?page=1&size=10');
  });

  it('reads the page of the licenses list the address names', async () => {
    const answers = answersIn((await open('/app/licenses?page=3', { cookie: buyer.cookie })).body)!;
    expect(Object.keys(answers)).toContain('/licenses/?page=3&size=10');
    expect(answers['/licenses/?page=3&size=10']?.body).toMatchObject({ page: 3, items: [] });
  });

  it("carries each customer's own answers only", async () => {
    const answers = answersIn((await open('/app/billing', { cookie: other })).body)!;
    expect((answers['/auth/session?optional=true']?.body as { user: { email: string } }).user.email).toBe(
      'answers-other@example.com',
    );
    expect(answers['/billing/subscriptions/']?.body).toEqual({ items: [] });
    expect(JSON.stringify(answers)).not.toContain(buyer.stripeId);
  });

  it('is the stored page without a session, before onboarding, for a HEAD, and outside the signed-in pages', async () => {
    const newcomer = await t.signIn('answers-newcomer@example.com', { onboard: false });
    for (const [url, headers, method] of [
      ['/app/billing', {}, 'GET'],
      ['/app/billing', { cookie: 'portal_session=not-a-session' }, 'GET'],
      ['/app/billing', { cookie: newcomer }, 'GET'],
      ['/app/billing', { cookie: buyer.cookie }, 'HEAD'],
      ['/app/profile', { cookie: buyer.cookie }, 'GET'],
      ['/login', { cookie: buyer.cookie }, 'GET'],
    ] as const) {
      const res = await open(url, headers, method);
      expect(res.statusCode, url).toBe(200);
      if (method === 'GET') expect(res.body, `${url} ${JSON.stringify(headers)}`).toBe(url === '/login' ? html : appHtml);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });
});

/** A stand-in for the app's own routes: `answer` gives each GET under /api its status and body. */
function fakeApp(answer: (url: string) => Promise<{ status: number; body: unknown }>) {
  const asked: string[] = [];
  const app = {
    inject: async ({ url }: { url: string }) => {
      asked.push(url);
      const { status, body } = await answer(url);
      return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8' }, json: () => body };
    },
  } as unknown as FastifyInstance;
  return { app, asked };
}

const request = (url: string) =>
  ({ url, method: 'GET', headers: { cookie: 'portal_session=x' }, ip: '203.0.113.9' }) as FastifyRequest;
const session = { user: { email: 'a@example.com', onboarded: true } };

describe('readFirstAnswers', () => {
  it('leaves out a read that failed: the app asks for it again and shows what it gets', async () => {
    const { app } = fakeApp(async (url) =>
      url === '/api/auth/session?optional=true'
        ? { status: 200, body: session }
        : url === '/api/products/support'
          ? { status: 500, body: { message: 'Something went wrong on our side. Please try again.' } }
          : { status: 200, body: { items: [] } },
    );
    const answers = (await readFirstAnswers(app, request('/app/support')))!;
    expect(Object.keys(answers).sort()).toEqual(['/auth/session?optional=true', '/billing/subscriptions/', '/config']);
  });

  it("sends the page without answers when the reads are slower than the wait, and reads nothing of the page's without a session", async () => {
    const stalled = fakeApp(() => new Promise(() => {}));
    expect(await readFirstAnswers(stalled.app, request('/app/dashboard'), 10)).toBeUndefined();

    const signedOut = fakeApp(async (url) =>
      url.startsWith('/api/auth/session') ? { status: 204, body: null } : { status: 200, body: {} },
    );
    expect(await readFirstAnswers(signedOut.app, request('/app/dashboard'))).toBeUndefined();
    expect(signedOut.asked.sort()).toEqual(['/api/auth/session?optional=true', '/api/config']);
  });
});

describe('withFirstAnswers', () => {
  it('puts the answers in a script element that no answer can close or leave', () => {
    const hostile = '</script><script>alert(1)</script><!-- & \u2028\u2029';
    const answers: FirstAnswers = { '/billing/details': { status: 200, body: { details: { company: hostile } } } };
    const page = withFirstAnswers(html, answers);
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    expect(page).not.toMatch(/<!--|\u2028|\u2029/);
    expect(answersIn(page)).toEqual(answers);
    expect(page.endsWith('</script></body></html>')).toBe(true);
  });
});
