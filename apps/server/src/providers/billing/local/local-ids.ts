import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Stripe-looking ids (sub_…, pm_…): 24 random base-62 characters after the prefix. */
export function localId(prefix: string): string {
  const bytes = randomBytes(24);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 62];
  return `${prefix}_${out}`;
}
