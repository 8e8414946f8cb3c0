import type { ValidateResponse } from '@portal/contract';
import type { Clock } from '../../lib/clock';
import { statusOf } from './license-rules';
import type { ValidationQueries, ValidationRow } from './licenses.repository';
import type { LastSeenBuffer } from './last-seen-buffer';
import type { ValidationCache } from './validation-cache';

export type ValidationDeps = {
  clock: Clock;
  queries: ValidationQueries;
  /** When given, licenses are read from memory kept current by database notifications. */
  cache?: ValidationCache | undefined;
  lastSeen: LastSeenBuffer;
};

/** The validation call every field machine makes: the portal's hot path. */
export function createValidation(deps: ValidationDeps) {
  const { clock, queries, cache, lastSeen } = deps;
  const find = (key: string, fingerprint: string | undefined): Promise<ValidationRow | undefined> =>
    cache ? cache.find(key, fingerprint) : queries.findForValidation(key, fingerprint);

  /**
   * Answers whether `key` (and `fingerprint` on it) may run now. The order of the checks:
   * NOT_FOUND (no such key), SUSPENDED (revoked or suspended), EXPIRED, then without a fingerprint
   * VALID (the key itself is good); with one: VALID when that node is activated,
   * NODE_LIMIT_REACHED when it is not and every slot is taken (activating it would fail), else
   * NOT_ACTIVATED (activating it would succeed).
   */
  async function validate(
    key: string,
    input: { fingerprint?: string | undefined; nonce?: string | undefined },
  ): Promise<ValidateResponse> {
    const now = clock.now();
    const base = { nonce: input.nonce ?? null, checkedAt: now.toISOString() };
    const license = await find(key, input.fingerprint);
    if (!license) return { valid: false, code: 'NOT_FOUND', ...base };
    const { activeNodes, nodeId } = license;
    const status = statusOf(license, now);
    const view = {
      licenseKey: license.key,
      status,
      maxNodes: license.maxNodes,
      activeNodes,
      expiresAt: license.expiresAt.toISOString(),
    };
    const node = nodeId && input.fingerprint ? { id: nodeId, fingerprint: input.fingerprint } : undefined;
    const answer = (valid: boolean, code: ValidateResponse['code']): ValidateResponse => ({
      valid,
      code,
      license: view,
      ...(node ? { node } : {}),
      ...base,
    });
    if (status === 'suspended') return answer(false, 'SUSPENDED');
    if (status === 'expired') return answer(false, 'EXPIRED');
    if (input.fingerprint === undefined) return answer(true, 'VALID');
    if (node) {
      await lastSeen.note(node.id, now);
      return answer(true, 'VALID');
    }
    return answer(false, activeNodes >= license.maxNodes ? 'NODE_LIMIT_REACHED' : 'NOT_ACTIVATED');
  }

  return { validate };
}
