/**
 * VIES, the EU's VAT number registry, behind one call. Production asks the European Commission's
 * REST service (VIES_URL); tests point VIES_URL at a local stand-in server. Nothing here decides
 * what a result means for tax: billing does.
 */
export type ViesResult =
  { outcome: 'valid'; name: string | null } | { outcome: 'invalid' } | { outcome: 'unavailable'; reason: string };

export interface VatRegistry {
  /** `prefix` is the VAT number's country prefix (EL for Greece), `number` the rest. Never throws. */
  check(prefix: string, number: string): Promise<ViesResult>;
}

/** The European Commission's VIES REST endpoint. */
export const VIES_DEFAULT_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number';

/**
 * The HTTP client of VIES's `check-vat-number` (POST `{ countryCode, vatNumber }`, answering
 * `{ valid, name }`). A member state's service being down answers an error instead of `valid`:
 * that, a timeout or a refused connection is 'unavailable', and the caller checks again later.
 */
export function httpVatRegistry(opts: { url: string; timeoutMs: number }): VatRegistry {
  return {
    async check(prefix, number) {
      try {
        const res = await fetch(opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ countryCode: prefix, vatNumber: number }),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) return { outcome: 'unavailable', reason: `VIES answered ${res.status}` };
        const body = (await res.json()) as { valid?: unknown; name?: unknown };
        if (typeof body.valid !== 'boolean') return { outcome: 'unavailable', reason: 'VIES gave no answer for this number' };
        if (!body.valid) return { outcome: 'invalid' };
        const name =
          typeof body.name === 'string' && body.name.trim() !== '' && body.name.trim() !== '---' ? body.name.trim() : null;
        return { outcome: 'valid', name };
      } catch (err) {
        return { outcome: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
