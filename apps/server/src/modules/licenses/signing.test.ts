import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSigner, parseSignatureHeader, verifySignature } from './signing';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-signing-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the license signer', () => {
  const signer = loadSigner({ configuredPem: undefined, dataDir });

  it('signs an answer’s header on the thread pool over its exact bytes, string or buffer alike', async () => {
    const body = '{"valid":true,"nonce":"é-1"}';
    const pending = signer.header(body);
    expect(pending).toBeInstanceOf(Promise);
    const fromString = parseSignatureHeader(await pending)!;
    const fromBuffer = parseSignatureHeader(await signer.header(Buffer.from(body, 'utf8')))!;
    expect(fromString).toEqual({ keyId: signer.keyId, alg: 'ed25519', sig: fromBuffer.sig });
    expect(verifySignature(signer.publicKeyPem, body, fromString.sig)).toBe(true);
    expect(verifySignature(signer.publicKeyPem, `${body} `, fromString.sig)).toBe(false);
    // Ed25519 is deterministic: the same bytes, signed in the event loop, give the same signature.
    expect(signer.sign(body)).toBe(fromString.sig);
  });

  it('keeps its key across restarts in the data folder', () => {
    expect(loadSigner({ configuredPem: undefined, dataDir }).publicKeyPem).toBe(signer.publicKeyPem);
  });
});
