import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  LICENSE_KEY_ALPHABET,
  LICENSE_KEY_PATTERN,
  LICENSE_KEY_TYPO_MESSAGE,
  LicenseKeySchema,
  isLicenseKeyChecksumValid,
  licenseKeyCheckCharacter,
} from '@portal/contract';
import { generateLicenseKey } from './license-key';

/** A small seeded generator, so a failure names a reproducible key. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return (max: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % max;
  };
}

const symbolsOf = (key: string) => key.replaceAll('-', '');
const withSymbol = (key: string, index: number, symbol: string) => {
  const s = symbolsOf(key).split('');
  s[index] = symbol;
  return s.join('').match(/.{5}/g)!.join('-');
};

describe('generateLicenseKey', () => {
  it('makes 25 symbols in 5 groups from the look-alike-free alphabet', () => {
    for (let i = 0; i < 500; i++) {
      const key = generateLicenseKey();
      expect(key).toMatch(LICENSE_KEY_PATTERN);
      expect(symbolsOf(key)).toHaveLength(25);
      for (const c of symbolsOf(key)) expect(LICENSE_KEY_ALPHABET).toContain(c);
      expect(key).not.toMatch(/[01OIL]/);
    }
  });

  it('ends in the right check character', () => {
    for (let i = 0; i < 500; i++) expect(isLicenseKeyChecksumValid(generateLicenseKey())).toBe(true);
  });

  it('does not repeat itself', () => {
    const keys = new Set(Array.from({ length: 5000 }, () => generateLicenseKey()));
    expect(keys.size).toBe(5000);
  });

  it('uses every symbol in every position (no stuck or biased position)', () => {
    const seen = Array.from({ length: 24 }, () => new Set<string>());
    for (let i = 0; i < 3000; i++)
      symbolsOf(generateLicenseKey())
        .slice(0, 24)
        .split('')
        .forEach((c, p) => seen[p]!.add(c));
    for (const s of seen) expect(s.size).toBe(31);
  });

  it('draws from the random source it is given', () => {
    expect(generateLicenseKey(() => 0)).toBe(`22222-22222-22222-22222-2222${licenseKeyCheckCharacter('2'.repeat(24))}`);
  });
});

describe('the check character', () => {
  // Property: for any key, any single-character substitution (in any of the 25 positions, by any
  // other symbol) is detected. Checked exhaustively for every substitution of 300 keys.
  it('detects every single-character substitution', () => {
    const keys = [
      ...Array.from({ length: 200 }, (_, i) => generateLicenseKey(seeded(i + 1))),
      ...Array.from({ length: 100 }, () => generateLicenseKey(randomInt)),
    ];
    let checked = 0;
    for (const key of keys) {
      const symbols = symbolsOf(key);
      for (let pos = 0; pos < 25; pos++) {
        for (const c of LICENSE_KEY_ALPHABET) {
          if (c === symbols[pos]) continue;
          const typo = withSymbol(key, pos, c);
          if (isLicenseKeyChecksumValid(typo)) throw new Error(`${typo} (from ${key}) passed the check`);
          checked++;
        }
      }
    }
    expect(checked).toBe(300 * 25 * 30);
  });

  it('detects swapped neighbours', () => {
    for (let i = 0; i < 300; i++) {
      const key = generateLicenseKey(seeded(1000 + i));
      const s = symbolsOf(key);
      for (let p = 0; p < 24; p++) {
        if (s[p] === s[p + 1]) continue;
        const swapped = withSymbol(withSymbol(key, p, s[p + 1]!), p + 1, s[p]!);
        expect(isLicenseKeyChecksumValid(swapped), `${key} swap at ${p}`).toBe(false);
      }
    }
  });

  it('refuses bodies of the wrong length or with foreign symbols', () => {
    expect(() => licenseKeyCheckCharacter('ABC')).toThrow();
    expect(() => licenseKeyCheckCharacter('0'.repeat(24))).toThrow();
  });
});

describe('LicenseKeySchema', () => {
  it('accepts a key in lower case with spaces around it', () => {
    const key = generateLicenseKey();
    expect(LicenseKeySchema.parse(`  ${key.toLowerCase()} `)).toBe(key);
  });

  it('tells a malformed key from a mistyped one', () => {
    const key = generateLicenseKey();
    const typo = withSymbol(key, 3, symbolsOf(key)[3] === 'A' ? 'B' : 'A');
    const malformed = LicenseKeySchema.safeParse('ABCDE-FGHJK');
    const mistyped = LicenseKeySchema.safeParse(typo);
    expect(malformed.success).toBe(false);
    expect(malformed.error!.issues[0]!.message).toMatch(/25 characters in 5 groups/);
    expect(mistyped.success).toBe(false);
    expect(mistyped.error!.issues).toHaveLength(1);
    expect(mistyped.error!.issues[0]!.message).toBe(LICENSE_KEY_TYPO_MESSAGE);
  });

  it('gives an example that is itself a valid key', () => {
    const example = /like (\S+)$/.exec(LicenseKeySchema.safeParse('x').error!.issues[0]!.message)![1]!;
    expect(isLicenseKeyChecksumValid(example)).toBe(true);
  });
});
