#!/usr/bin/env node
// How a node checks its license against the portal and verifies the signed answer, using nothing
// but Node (20+) and node:crypto. See docs/license-verification.md.
//
//   node examples/verify-license.mjs <portal-url> <license-key> [fingerprint] [--activate]
//       Validates the key (and the node of that fingerprint) online, verifying the signature.
//       With --activate, first activates the fingerprint on the key.
//   node examples/verify-license.mjs --file <license-file.json> --public-key <public-key.pem>
//       Verifies a downloaded license file offline (air-gapped sites).
//
// Set PORTAL_PUBLIC_KEY to a PEM file to pin the public key (what a shipped product should do);
// without it the key is fetched from the portal, which trusts the network on first use.
//
// Exit status: 0 valid, 1 not valid or not verified, 2 wrong usage.

import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const CLOCK_SKEW_MS = 5 * 60 * 1000;

function usage(message) {
  if (message) console.error(message);
  console.error(
    'Usage: node examples/verify-license.mjs <portal-url> <license-key> [fingerprint] [--activate]\n' +
      '       node examples/verify-license.mjs --file <license-file.json> --public-key <public-key.pem>',
  );
  process.exit(2);
}

/** The key id: the first 16 hex characters of the SHA-256 of the raw 32-byte Ed25519 public key. */
function keyIdOf(publicKey) {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url');
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

/** `Signature: keyid="…", alg="ed25519", sig="…"` -> its three fields. */
function parseSignature(header) {
  const fields = Object.fromEntries([...String(header ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (!fields.keyid || fields.alg !== 'ed25519' || !fields.sig) throw new Error(`no usable Signature header: ${header}`);
  return { keyId: fields.keyid, sig: Buffer.from(fields.sig, 'base64') };
}

/** Canonical JSON: keys sorted, no whitespace; the form a license file's signature covers. */
function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

async function loadPublicKey(portal) {
  if (process.env.PORTAL_PUBLIC_KEY) return createPublicKey(readFileSync(process.env.PORTAL_PUBLIC_KEY, 'utf8'));
  const res = await fetch(new URL('/api/licenses/public-key', portal));
  if (!res.ok) throw new Error(`GET /api/licenses/public-key answered ${res.status}`);
  const body = await res.json();
  const key = createPublicKey(body.publicKeyPem);
  if (keyIdOf(key) !== body.keyId) throw new Error('the published key id does not match the published key');
  console.log(`public key ${body.keyId} fetched from the portal (pin it in production: PORTAL_PUBLIC_KEY)`);
  return key;
}

/** POSTs JSON and verifies the Signature over the exact bytes received, before parsing them. */
async function signedPost(portal, path, payload, publicKey) {
  const res = await fetch(new URL(path, portal), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const signature = parseSignature(res.headers.get('signature'));
  if (signature.keyId !== keyIdOf(publicKey))
    throw new Error(`signed with key ${signature.keyId}, not the trusted key ${keyIdOf(publicKey)}`);
  if (!verify(null, bytes, publicKey, signature.sig))
    throw new Error(`the signature of the answer to ${path} does not verify: do not trust it`);
  return { status: res.status, body: JSON.parse(bytes.toString('utf8')) };
}

async function online(portal, key, fingerprint, activate) {
  const publicKey = await loadPublicKey(portal);
  const base = `/api/licenses/${encodeURIComponent(key)}`;
  if (activate) {
    if (!fingerprint) usage('--activate needs a fingerprint');
    const a = await signedPost(portal, `${base}/activate`, { fingerprint }, publicKey);
    console.log(
      `activate: ${a.status} ${a.status < 300 ? `node ${a.body.node.id}` : `${a.body.code}: ${a.body.message}`} (signature verified)`,
    );
  }
  // A fresh nonce: the signed answer must echo it, so an old answer cannot be replayed.
  const nonce = randomBytes(16).toString('hex');
  const { status, body } = await signedPost(
    portal,
    `${base}/validate`,
    { ...(fingerprint ? { fingerprint } : {}), nonce },
    publicKey,
  );
  if (status !== 200) {
    console.log(`validate: ${status} ${body.code}: ${body.message} (signature verified)`);
    return 1;
  }
  if (body.nonce !== nonce) throw new Error('the answer does not echo our nonce: a replayed answer');
  if (Math.abs(Date.parse(body.checkedAt) - Date.now()) > CLOCK_SKEW_MS)
    throw new Error(`the answer was made at ${body.checkedAt}: too far from our clock`);
  console.log(`validate: ${body.code}, valid=${body.valid} (signature and nonce verified)`);
  if (body.license) {
    const l = body.license;
    console.log(`  license ${l.licenseKey}: ${l.status}, ${l.activeNodes}/${l.maxNodes} nodes, expires ${l.expiresAt}`);
    if (l.grace) console.log(`  warning: a payment is failing; the license stays valid until ${l.grace.until} (grace)`);
  }
  if (body.node) console.log(`  node ${body.node.id} (${body.node.fingerprint})`);
  return body.valid ? 0 : 1;
}

function offline(filePath, publicKeyPath) {
  const file = JSON.parse(readFileSync(filePath, 'utf8'));
  const publicKey = createPublicKey(readFileSync(publicKeyPath, 'utf8'));
  if (file.algorithm !== 'Ed25519') throw new Error(`unknown algorithm ${file.algorithm}`);
  if (file.keyId !== keyIdOf(publicKey))
    throw new Error(`the file was signed with key ${file.keyId}, not the trusted key ${keyIdOf(publicKey)}`);
  const signed = Buffer.from(canonicalJson(file.license), 'utf8');
  if (!verify(null, signed, publicKey, Buffer.from(file.signature, 'base64')))
    throw new Error('the license file signature does not verify: it was altered');
  const l = file.license;
  console.log(`license file for ${l.key} (${l.customerEmail ?? 'no e-mail'}): signature verified`);
  console.log(`  ${l.status}, up to ${l.maxNodes} nodes, expires ${l.expiresAt}, issued ${l.issuedAt}`);
  if (l.grace) console.log(`  warning: a payment was failing; the license stays valid until ${l.grace.until} (grace)`);
  const now = Date.now();
  if (Date.parse(l.issuedAt) > now + CLOCK_SKEW_MS)
    throw new Error('the file claims to be issued in the future: check this machine’s clock');
  if (l.status !== 'active') {
    console.log(`  not valid: the license was ${l.status} when the file was issued`);
    return 1;
  }
  if (Date.parse(l.expiresAt) <= now) {
    console.log('  not valid: the license has expired');
    return 1;
  }
  console.log('  valid');
  return 0;
}

async function main(argv) {
  const flag = (name) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const [value] = argv.splice(i, 2).slice(1);
    if (value === undefined) usage(`${name} needs a value`);
    return value;
  };
  const activate = argv.includes('--activate');
  if (activate) argv.splice(argv.indexOf('--activate'), 1);
  const file = flag('--file');
  if (file !== undefined) {
    const publicKey = flag('--public-key');
    if (!publicKey || argv.length > 0) usage('--file needs --public-key <pem> and nothing else');
    return offline(file, publicKey);
  }
  if (argv.length < 2 || argv.length > 3 || argv.some((a) => a.startsWith('--'))) usage();
  const [portal, key, fingerprint] = argv;
  if (!URL.canParse(portal)) usage(`not a URL: ${portal}`);
  return online(portal, key, fingerprint, activate);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`error: ${err.message}`);
    process.exit(1);
  },
);
