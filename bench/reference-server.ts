// The two references of the validation benchmark, on node:http alone (no framework), in a child
// process like the portal:
//   REFERENCE=wire    reads the POST body and answers a small JSON body: the wire's limit.
//   REFERENCE=signed  parses the body, looks the node up in memory, answers the same kind of answer
//                     as the portal's validation (license, node, nonce, time) signed with Ed25519
//                     over its exact bytes: the limit of a signed answer on one core.
//   REFERENCE=signed-pool  the same, signed on libuv's thread pool (node:crypto's callback form)
//                     as the portal signs: the limit of a signed answer of one process whose
//                     signing runs on other cores.
// The parent is told the port over IPC.
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const mode = process.env.REFERENCE === 'signed' || process.env.REFERENCE === 'signed-pool' ? process.env.REFERENCE : 'wire';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const keyId = createHash('sha256')
  .update(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'))
  .digest('hex')
  .slice(0, 16);
/** Any fingerprint is an activated node of one license (the lookup is what a cache hit costs). */
const nodes = new Map<string, string>();
const license = {
  licenseKey: 'REFER-ENCER-EFERE-NCERE-FEREN',
  status: 'active',
  maxNodes: 60,
  activeNodes: 50,
  expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (mode === 'wire') {
      const body = '{"ok":true}';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    let input: { fingerprint?: string; nonce?: string } = {};
    try {
      input = JSON.parse(Buffer.concat(chunks).toString()) as typeof input;
    } catch {
      // An unreadable body checks the key alone.
    }
    let node: { id: string; fingerprint: string } | undefined;
    if (input.fingerprint) {
      let id = nodes.get(input.fingerprint);
      if (!id) nodes.set(input.fingerprint, (id = randomUUID()));
      node = { id, fingerprint: input.fingerprint };
    }
    const body = JSON.stringify({
      valid: true,
      code: 'VALID',
      license,
      ...(node ? { node } : {}),
      nonce: input.nonce ?? null,
      checkedAt: new Date().toISOString(),
    });
    const bytes = Buffer.from(body);
    const reply = (sig: Buffer) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': bytes.length,
        signature: `keyid="${keyId}", alg="ed25519", sig="${sig.toString('base64')}"`,
      });
      res.end(bytes);
    };
    if (mode === 'signed') reply(sign(null, bytes, privateKey));
    else
      sign(null, bytes, privateKey, (err, sig) => {
        if (err) res.destroy(err);
        else reply(sig);
      });
  });
});
server.keepAliveTimeout = 60_000;
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, port: (server.address() as AddressInfo).port });
});
