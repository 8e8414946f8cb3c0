import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '@portal/contract';
import { rawRequest, requestBytes } from '../../../test/raw-http';
import { generateLicenseKey } from './license-key';
import { createValidationFastPath, type ValidationFastPathDeps } from './validation-fast-path';

/**
 * The fast path signs each answer off the event loop (the signer's promise) and writes it when the
 * signature is there: what it writes is the signed bytes, and an answer that cannot be signed is
 * never sent unsigned. The answers themselves are compared with the route's in
 * validation-fast-path.test.ts; here the signer is a stand-in, to make it fail.
 */

const answer: ValidateResponse = { valid: true, code: 'VALID', nonce: 'n-1', checkedAt: '2026-11-25T12:00:00.000Z' };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serving(signatureHeader: ValidationFastPathDeps['signatureHeader']) {
  const errors: unknown[] = [];
  const counted: number[] = [];
  const fastPath = createValidationFastPath({
    fromMemory: () => () => ({ answer, pending: undefined }),
    signatureHeader,
    rateLimit: async () => {},
    perMinute: 0,
    shedding: { refusing: () => false, admit: () => () => {} },
    count: (status) => counted.push(status),
    securityHeaders: [['x-content-type-options', 'nosniff']],
    allowedOrigin: 'http://localhost:3000',
    trustProxy: false,
    bodyLimit: 1024,
    logError: (err) => errors.push(err),
  });
  const handedOn: string[] = [];
  server = createServer((req, res) =>
    fastPath.serve(req, res, () => {
      handedOn.push(req.url ?? '');
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const request = () =>
    rawRequest(
      port,
      requestBytes(port, {
        path: `/api/licenses/${generateLicenseKey()}/validate`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nonce: 'n-1' }),
      }),
    );
  return { request, errors, counted, handedOn, stats: fastPath.stats };
}

describe('the fast path’s signature', () => {
  it('is the signer’s, over the exact bytes it sends, in the route’s header order', async () => {
    const signed: Buffer[] = [];
    const s = await serving(async (bytes) => {
      signed.push(Buffer.from(bytes));
      await new Promise((r) => setImmediate(r));
      return `sig-of-${bytes.length}`;
    });
    const got = await s.request();
    expect(got.status).toBe(200);
    expect(got.body.equals(Buffer.from(JSON.stringify(answer)))).toBe(true);
    expect(signed).toEqual([got.body]);
    expect(got.headers.filter(([name]) => name !== 'date' && name !== 'connection')).toEqual([
      ['content-type', 'application/json; charset=utf-8'],
      ['x-content-type-options', 'nosniff'],
      ['cache-control', 'no-store'],
      ['signature', `sig-of-${got.body.length}`],
      ['content-length', String(got.body.length)],
    ]);
    expect([s.counted, s.stats().answered, s.errors]).toEqual([[200], 1, []]);
  });

  it('that fails: nothing is sent unsigned, the connection is ended and the error logged', async () => {
    const failure = new Error('the signing key is gone');
    const s = await serving(() => Promise.reject(failure));
    await expect(s.request()).rejects.toThrow();
    expect(s.errors).toEqual([failure]);
    expect([s.counted, s.stats().answered, s.handedOn]).toEqual([[], 0, []]);
  });
});
