// A license key's shape and check character, without zod: the web app's pages check a key from
// the address with these, and a schema here would put zod into their first chunk.

/** Key alphabet without look-alikes (no 0/O, 1/I/L): 31 symbols. */
export const LICENSE_KEY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 25 characters in 5 groups of 5, the last one a check character. */
export const LICENSE_KEY_PATTERN = /^[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){4}$/;

/** Said when a key has the right shape but its check character does not match: a mistyped key. */
export const LICENSE_KEY_TYPO_MESSAGE = 'This license key has a typo: check it and try again';

/**
 * The check character of a key's first 24 symbols (dashes ignored). Position i (0-based) weighs
 * i + 2 and the check character weighs 1, and the weighted sum is 0 modulo 31. As 31 is prime and
 * every weight lies in 1..25, changing any one character, or swapping two neighbours, always
 * changes the sum: such a typo can never produce another valid key.
 */
export function licenseKeyCheckCharacter(body: string): string {
  const symbols = body.replaceAll('-', '');
  if (symbols.length !== 24) throw new Error('A license key body has 24 symbols');
  let sum = 0;
  for (let i = 0; i < symbols.length; i++) {
    const v = LICENSE_KEY_ALPHABET.indexOf(symbols[i]!);
    if (v < 0) throw new Error(`"${symbols[i]}" is not a license key symbol`);
    sum += (i + 2) * v;
  }
  return LICENSE_KEY_ALPHABET[(31 - (sum % 31)) % 31]!;
}

/** True when `key` has the 5x5 shape and its last character is the right check character. */
export function isLicenseKeyChecksumValid(key: string): boolean {
  if (!LICENSE_KEY_PATTERN.test(key)) return false;
  const symbols = key.replaceAll('-', '');
  return licenseKeyCheckCharacter(symbols.slice(0, 24)) === symbols[24];
}

/** A key from the address or a person, trimmed and upper-cased, when it is a well-formed key; else null. */
export function wellFormedLicenseKey(text: string): string | null {
  const key = text.trim().toUpperCase();
  return isLicenseKeyChecksumValid(key) ? key : null;
}
