import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildWebTestApp } from '../../test/helpers';
import { JSON_COMPRESSION_THRESHOLD, pickEncoding } from './web-app';

let app: FastifyInstance;
let close: () => Promise<void>;
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const html = `<!doctype html><title>Portal</title><div id="root"></div>${' '.repeat(600)}`;
/** The signed-in pages' copy, as the web build's sectionPage writes it: the shell's code preloaded. */
const appHtml = html.replace('<title>', '<link rel="modulepreload" href="/assets/app-layout-abc.js"><title>');

/** A build as the web app's Vite build writes it: each file with its .br and .gz beside it. */
function writeWithCopies(file: string, body: string) {
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body));
  writeFileSync(`${file}.gz`, gzipSync(body));
}

beforeAll(async () => {
  ({ app, close } = await buildWebTestApp('portal-web-compress-', (dir) => {
    writeWithCopies(path.join(dir, 'index.html'), html);
    writeWithCopies(path.join(dir, 'app.html'), appHtml);
    writeWithCopies(path.join(dir, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  }));
});
afterAll(() => close());

describe('compressed delivery of the built web app', () => {
  it('sends the build-time Brotli copy of an asset to a client that accepts it', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy to a client without Brotli, and plain bytes to one that accepts neither', async () => {
    const gz = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends page paths their index.html compressed and not cached', async () => {
    const res = await app.inject({ method: 'GET', url: '/login?to=%2Fapp', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  it('sends the signed-in pages (/app and under it) the copy that preloads the shell, and no other page', async () => {
    for (const url of ['/app', '/app/licenses', '/app/billing?session=1']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(gunzipSync(res.rawPayload).toString(), url).toBe(appHtml);
      const plain = await app.inject({ method: 'GET', url });
      expect(plain.body, url).toBe(appHtml);
    }
    for (const url of ['/', '/apps', '/application/x', '/signup', '/onboarding']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).toBe(html);
    }
  });

  it('compresses JSON answers above the threshold', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.body.length).toBeGreaterThan(JSON_COMPRESSION_THRESHOLD);
    const br = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small JSON answers as they are', async () => {
    for (const url of ['/api/config', '/api/auth/session', '/api/nope']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.body.length, url).toBeLessThan(JSON_COMPRESSION_THRESHOLD);
      expect(() => res.json(), url).not.toThrow();
    }
  });
});

describe('robots.txt and other missing files', () => {
  it('serves robots.txt as text, not the app page', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('User-agent: *');
  });

  it('answers a missing file at the root with 404, not the app page', async () => {
    for (const url of ['/favicon.ico', '/sitemap.xml', '/app/missing.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
  });
});

describe('pickEncoding', () => {
  it('prefers Brotli, honours q-values and refusals', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=1')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
