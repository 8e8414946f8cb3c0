import type { LicenseFile, PublicKeyResponse } from '@portal/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { licensesRepository as repo } from './licenses.repository';
import { graceOf, statusOf } from './license-rules';
import { canonicalJson, loadSigner, type LicenseSigner } from './signing';

export type LicenseSigningDeps = {
  config: Pick<Config, 'dataDir' | 'licenseSigningKey'>;
  /** A ready signer (tests, or a caller that loaded one already); else loaded from config. */
  signer?: LicenseSigner | undefined;
};

/** The signing key, loaded once: at start-up when configured, else on first use. */
export function createSigning(deps: LicenseSigningDeps) {
  const load = () => loadSigner({ configuredPem: deps.config.licenseSigningKey, dataDir: deps.config.dataDir });
  // A configured key is read at start-up, so a bad value stops the server with a clear message.
  let signer = deps.signer ?? (deps.config.licenseSigningKey ? load() : undefined);
  /** Generated on first use, so processes that never sign (a CLI listing) never write a key file. */
  const get = () => (signer ??= load());
  return {
    get,
    publicKey(): PublicKeyResponse {
      const s = get();
      return { keyId: s.keyId, algorithm: 'Ed25519', publicKeyPem: s.publicKeyPem };
    },
    /** The `Signature` header value for an answer's exact bytes (signed off the event loop). */
    signatureHeader: (body: string | Buffer) => get().header(body),
  };
}
export type Signing = ReturnType<typeof createSigning>;

/** A signed license document for sites that cannot reach the portal. */
export async function licenseFile(
  deps: { db: Db; clock: Clock; signing: Signing },
  userId: string,
  key: string,
): Promise<LicenseFile> {
  const license = await repo.findOwned(deps.db, userId, key);
  if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
  const now = deps.clock.now();
  const content = {
    key: license.key,
    customerEmail: await repo.userEmail(deps.db, license.userId),
    status: statusOf(license, now),
    maxNodes: license.maxNodes,
    expiresAt: license.expiresAt.toISOString(),
    ...graceOf(license, now),
    issuedAt: now.toISOString(),
  };
  const s = deps.signing.get();
  return { license: content, keyId: s.keyId, algorithm: 'Ed25519', signature: s.sign(canonicalJson(content)) };
}
