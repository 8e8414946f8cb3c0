import { randomInt } from 'node:crypto';
import { LICENSE_KEY_ALPHABET, licenseKeyCheckCharacter } from '@portal/contract';

/**
 * A new license key: 24 symbols from a cryptographic source (31 symbols each, about 119 bits) and
 * a check character, in 5 groups of 5. `randomInt` draws without modulo bias.
 */
export function generateLicenseKey(random: (max: number) => number = randomInt): string {
  let body = '';
  for (let i = 0; i < 24; i++) body += LICENSE_KEY_ALPHABET[random(LICENSE_KEY_ALPHABET.length)];
  const symbols = body + licenseKeyCheckCharacter(body);
  return symbols.match(/.{5}/g)!.join('-');
}

/** For summaries and logs: enough to recognise a key without spelling it out. */
export const shortKey = (key: string) => `${key.slice(0, 5)}-…`;
