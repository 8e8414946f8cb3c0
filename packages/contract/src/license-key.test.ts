import { describe, expect, it } from 'vitest';
import { licenseKeyCheckCharacter, wellFormedLicenseKey } from './license-key';
import { LicenseKeySchema } from './licenses';

const body = '7K3QF-M2XPD-9HRTW-CV4NB-JEZ6';
const key = `${body}${licenseKeyCheckCharacter(body)}`;

describe('wellFormedLicenseKey', () => {
  it('answers the key trimmed and upper-cased, as the schema reads it', () => {
    expect(wellFormedLicenseKey(`  ${key.toLowerCase()} `)).toBe(key);
    expect(LicenseKeySchema.parse(`  ${key.toLowerCase()} `)).toBe(key);
  });

  it('answers null for what the schema refuses: a wrong shape or a typo', () => {
    const typo = `${body}${licenseKeyCheckCharacter(body) === '2' ? '3' : '2'}`;
    for (const text of ['', 'nope', key.slice(1), typo, key.replaceAll('-', '')]) {
      expect(wellFormedLicenseKey(text), text).toBeNull();
      expect(LicenseKeySchema.safeParse(text).success, text).toBe(false);
    }
  });
});
