import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { createTestDatabase, memoryMailer } from '../../../test/helpers';
import { generateLicenseKey } from './license-key';
import { quietLevel } from './licenses.routes';

describe('quietLevel', () => {
  it('drops per-request info lines and keeps stricter or debugging levels', () => {
    expect(quietLevel('info')).toBe('warn');
    expect(quietLevel('warn')).toBe('warn');
    expect(quietLevel('error')).toBe('error');
    expect(quietLevel('silent')).toBe('silent');
    expect(quietLevel('debug')).toBe('debug');
    expect(quietLevel('trace')).toBe('trace');
  });
});

describe('request logs of validation at LOG_LEVEL=info', () => {
  const lines: Array<{ msg?: string; req?: { url?: string }; level: number }> = [];
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-log-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      WORKERS: 'false',
      RATE_LIMIT_LICENSE: '0',
    });
    database = await createTestDatabase();
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp(config, { database, mailer: memoryMailer(), serveWeb: false, logger: { level: 'info', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are not written for validations, but are for other routes', async () => {
    const key = generateLicenseKey();
    const before = lines.length;
    const res = await app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { nonce: 'n' } });
    expect(res.statusCode).toBe(200);
    expect(lines.slice(before).filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    await app.inject({ method: 'GET', url: '/api/licenses/public-key' });
    expect(lines.slice(before).filter((l) => l.msg === 'incoming request')).toHaveLength(1);
  });
});
