import type { ValidateResponse } from '@portal/contract';
import type { Clock } from '../../lib/clock';
import { graceOf, statusOf } from './license-rules';
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

/** A validation's body, as the contract's schema gives it. */
export type ValidateInput = { fingerprint?: string | undefined; nonce?: string | undefined };

/** An answer read from memory alone: the answer, and the node's last-seen write when one must be awaited. */
export type MemoryAnswer = { answer: ValidateResponse; pending: Promise<void> | undefined };

/**
 * The answer to `input` for what is known of its license (undefined: no license has the key), and
 * the node to note as seen. The order of the checks: NOT_FOUND (no such key), SUSPENDED (revoked
 * or suspended), EXPIRED, then without a fingerprint VALID (the key itself is good); with one:
 * VALID when that node is activated, NODE_LIMIT_REACHED when it is not and every slot is taken
 * (activating it would fail), else NOT_ACTIVATED (activating it would succeed).
 */
export function answerOf(
  license: ValidationRow | undefined,
  input: ValidateInput,
  now: Date,
): { answer: ValidateResponse; seen: string | undefined } {
  const base = { nonce: input.nonce ?? null, checkedAt: now.toISOString() };
  if (!license) return { answer: { valid: false, code: 'NOT_FOUND', ...base }, seen: undefined };
  const { activeNodes, nodeId } = license;
  const status = statusOf(license, now);
  const view = {
    licenseKey: license.key,
    status,
    maxNodes: license.maxNodes,
    activeNodes,
    expiresAt: license.expiresAt.toISOString(),
    ...graceOf(license, now),
  };
  const node = nodeId && input.fingerprint ? { id: nodeId, fingerprint: input.fingerprint } : undefined;
  const answer = (valid: boolean, code: ValidateResponse['code'], seen?: string) => ({
    answer: { valid, code, license: view, ...(node ? { node } : {}), ...base },
    seen,
  });
  if (status === 'suspended') return answer(false, 'SUSPENDED');
  if (status === 'expired') return answer(false, 'EXPIRED');
  if (input.fingerprint === undefined) return answer(true, 'VALID');
  if (node) return answer(true, 'VALID', node.id);
  return answer(false, activeNodes >= license.maxNodes ? 'NODE_LIMIT_REACHED' : 'NOT_ACTIVATED');
}

/** The validation call every field machine makes: the portal's hot path. */
export function createValidation(deps: ValidationDeps) {
  const { clock, queries, cache, lastSeen } = deps;
  const find = (key: string, fingerprint: string | undefined): Promise<ValidationRow | undefined> =>
    cache ? cache.find(key, fingerprint) : queries.findForValidation(key, fingerprint);

  /** Answers whether `key` (and `fingerprint` on it) may run now (see answerOf). */
  async function validate(key: string, input: ValidateInput): Promise<ValidateResponse> {
    const now = clock.now();
    const { answer, seen } = answerOf(await find(key, input.fingerprint), input, now);
    lastSeen.count(now, answer.valid);
    if (seen) await lastSeen.note(seen, now);
    return answer;
  }

  /**
   * The same validation when memory alone answers it (the route's fast path,
   * validation-fast-path.ts): a function giving the answer validate would give at the time it is
   * called (counting the cache hit and the validation, and noting the node as seen, as validate does), or undefined
   * when validate would read the database. Looking changes nothing.
   */
  function fromMemory(key: string, input: ValidateInput): (() => MemoryAnswer) | undefined {
    const row = cache?.peek(key, input.fingerprint);
    if (row === undefined) return undefined;
    return () => {
      const now = clock.now();
      cache!.hit(key);
      const { answer, seen } = answerOf(row ?? undefined, input, now);
      lastSeen.count(now, answer.valid);
      return { answer, pending: seen ? lastSeen.note(seen, now) : undefined };
    };
  }

  return { validate: Object.assign(validate, { fromMemory }) };
}
