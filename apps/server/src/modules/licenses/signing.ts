import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { persistentSecret } from '../../config';

export const SIGNING_KEY_FILE = 'license-signing-key.pem';

export type LicenseSigner = {
  /** First 16 hex characters of the SHA-256 of the raw 32-byte public key. */
  keyId: string;
  publicKeyPem: string;
  /** Base64 Ed25519 signature of exactly these bytes. */
  sign: (data: string | Buffer) => string;
  /**
   * The `Signature` header value for a body: keyid="…", alg="ed25519", sig="…". Signed on libuv's
   * thread pool, off the event loop, so that a busy server signs on other cores while it serves.
   */
  header: (body: string | Buffer) => Promise<string>;
};

/**
 * The Ed25519 key that signs activate/validate answers and license files: LICENSE_SIGNING_KEY when
 * set (PEM; literal \n sequences accepted, as env files often hold one line), else a key generated
 * once into `$DATA_DIR/license-signing-key.pem`, so restarts keep signatures verifiable. Several
 * instances must share one key, so they need LICENSE_SIGNING_KEY (or one shared DATA_DIR).
 */
export function loadSigner(opts: { configuredPem: string | undefined; dataDir: string }): LicenseSigner {
  const pem =
    opts.configuredPem?.replace(/\\n/g, '\n') ??
    persistentSecret(opts.dataDir, SIGNING_KEY_FILE, () =>
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(
      opts.configuredPem
        ? 'LICENSE_SIGNING_KEY is not a readable private key: set it to an Ed25519 private key in PEM (openssl genpkey -algorithm ed25519)'
        : `${opts.dataDir}/${SIGNING_KEY_FILE} is not a readable private key: remove it to have a new one generated`,
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `LICENSE_SIGNING_KEY must be an Ed25519 private key, not ${privateKey.asymmetricKeyType ?? 'this kind of key'}`,
    );
  }
  const publicKey = createPublicKey(privateKey);
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const keyId = createHash('sha256').update(raw).digest('hex').slice(0, 16);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const bytesOf = (data: string | Buffer) => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  // Only the signature depends on the answer (its nonce and time are in the signed bytes).
  const headerStart = `keyid="${keyId}", alg="ed25519", sig="`;
  return {
    keyId,
    publicKeyPem,
    sign: (data) => sign(null, bytesOf(data), privateKey).toString('base64'),
    header: (body) =>
      new Promise((resolve, reject) => {
        sign(null, bytesOf(body), privateKey, (err, signature) => {
          if (err) reject(err);
          else resolve(`${headerStart}${signature.toString('base64')}"`);
        });
      }),
  };
}

/** Parses a `Signature` header; undefined when it is not of our form. */
export function parseSignatureHeader(value: string | undefined): { keyId: string; alg: string; sig: string } | undefined {
  if (!value) return undefined;
  const fields = Object.fromEntries([...value.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  if (!fields.keyid || !fields.alg || !fields.sig) return undefined;
  return { keyId: fields.keyid, alg: fields.alg, sig: fields.sig };
}

export function verifySignature(publicKeyPem: string, data: string | Buffer, signatureBase64: string): boolean {
  return verify(
    null,
    typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
    createPublicKey(publicKeyPem),
    Buffer.from(signatureBase64, 'base64'),
  );
}

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, everything else as JSON.stringify
 * writes it. Signing this form lets a verifier re-serialize a parsed document and get the same bytes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
