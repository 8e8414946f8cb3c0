import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Small secrets kept in the database encrypted (AES-256-GCM) under a key derived from the
 * server's secret (`purpose` keeps keys of different uses apart): a copy of the database alone
 * does not give them away.
 */
export function secretBox(serverSecret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'portal-secret-box', purpose, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed: string): string {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
