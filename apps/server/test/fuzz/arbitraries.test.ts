import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_IDS, type FuzzIds } from './arbitraries';
import { badRequests, judge, SEED, validCandidate } from './harness';
import { ROUTES, routeId } from './routes';

/** The generators agree with the contract, so a fuzz failure means the server, not the test. */

const IDS: FuzzIds = {
  ...NO_IDS,
  setupSecrets: ['seti_abc_secret_def'],
  download: { filename: 'pce-1.2.3.iso', expires: '1900000000', u: '00000000-0000-4000-8000-000000000001', sig: 'c2ln' },
};

const withInputs = ROUTES.filter((r) => r.params || r.query || r.body || r.headers);

describe.each(withInputs.map((r) => [routeId(r), r] as const))('%s', (_id, route) => {
  it('generates only requests the contract accepts', () => {
    fc.assert(
      fc.property(validCandidate(route, IDS), (c) => {
        for (const [part, value] of [
          [route.params, c.params],
          [route.query, c.query ?? {}],
          [route.body, c.body],
          [route.headers, c.headers],
        ] as const) {
          if (!part) continue;
          const r = part.schema.safeParse(value);
          if (!r.success) throw new Error(`${JSON.stringify(value)}: ${r.error.message}`);
        }
        expect(judge(route, c)).toEqual({ kind: 'any' });
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('mutates them into requests the oracle can judge', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(badRequests(route, IDS), (c) => {
        seen.add(judge(route, c).kind);
      }),
      { seed: SEED, numRuns: 60 },
    );
    // Opaque ids (any 1..255 characters) leave nothing to refuse in a path alone.
    // The Google callback takes any query on purpose.
    if ((route.body || route.query || route.headers) && !route.url.endsWith('/callback')) expect(seen.has('reject')).toBe(true);
  });
});

describe('the oracle', () => {
  const checkout = ROUTES.find((r) => r.url === '/api/billing/intents/checkout')!;
  const base = { label: '', params: {}, query: undefined, headers: {} };
  it('refuses what the contract refuses, by where it fails', () => {
    expect(judge(checkout, { ...base, body: { interval: 'month', quantity: 1 } })).toEqual({ kind: 'any' });
    expect(judge(checkout, { ...base, body: { interval: 'month', quantity: 1, admin: true } })).toEqual({
      kind: 'reject',
      statuses: [400],
    });
    expect(judge(checkout, { ...base, body: { interval: 'month', quantity: 0 } })).toEqual({ kind: 'reject', statuses: [400] });
    expect(judge(checkout, { ...base, body: { interval: 'x'.repeat(20_000), quantity: 1 } })).toEqual({
      kind: 'reject',
      statuses: [413],
    });
    expect(judge(checkout, { ...base, body: undefined, rawPayload: '{"__proto__":{}}' })).toEqual({
      kind: 'reject',
      statuses: [400],
    });
    expect(judge(checkout, { ...base, body: undefined, rawPayload: '\uFEFF{"interval":"year","quantity":2}' })).toEqual({
      kind: 'any',
    });
    expect(
      judge(checkout, { ...base, body: { interval: 'month', quantity: 1 }, headers: { 'idempotency-key': 'short' } }),
    ).toEqual({ kind: 'reject', statuses: [400] });
  });
});
