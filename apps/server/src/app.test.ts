import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from './app';
import { buildWebTestApp } from '../test/helpers';

let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, close } = await buildWebTestApp('portal-web-', (dir) => {
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  }));
});
afterAll(() => close());

describe('serving the built web app', () => {
  it('answers every page path with index.html, not cached', async () => {
    for (const url of ['/', '/login', '/app/licenses', '/no/such/page?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown API paths and missing assets with the JSON error, not the page', async () => {
    for (const url of ['/api/nope', '/assets/missing.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const post = await app.inject({ method: 'POST', url: '/app/licenses', payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe('redactUrl', () => {
  it('hides sign-in link secrets and query strings', () => {
    expect(redactUrl(`/api/auth/link/${'a'.repeat(43)}`)).toBe('/api/auth/link/[redacted]');
    expect(redactUrl('/api/products/pce/files/x.iso?expires=1&sig=abc')).toBe('/api/products/pce/files/x.iso?[redacted]');
    expect(redactUrl('/api/licenses/')).toBe('/api/licenses/');
  });
});
