import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, redactUrl } from './app';
import { loadConfig } from './config';
import { createTestDatabase } from '../test/helpers';
import type { Database } from './db/client';

let app: FastifyInstance;
let database: Database;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: path.join(dir, 'data'), WORKERS: 'false' });
  app = await buildApp(config, { database, webDist: dir, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

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
