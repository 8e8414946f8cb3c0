import { isIP } from 'node:net';
import { z } from 'zod';
import { int, optionalString } from './env-parsers';

/** Outbound webhooks: the private addresses they may reach anyway and how long an attempt waits. */
export const WebhookEnvSchema = z.object({
  /** Private ranges outbound webhooks may reach anyway (a CRM inside the vendor's network), comma-separated CIDRs. */
  WEBHOOK_ALLOW_PRIVATE: optionalString.transform((v, ctx) => {
    if (v === undefined) return [];
    const parts = v
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const bad = parts.filter((p) => {
      const [ip, bits, ...rest] = p.split('/');
      const family = isIP(ip ?? '');
      if (family === 0 || rest.length > 0) return true;
      if (bits === undefined) return false;
      const n = Number(bits);
      return !/^\d{1,3}$/.test(bits) || n > (family === 4 ? 32 : 128);
    });
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated IP addresses or CIDR ranges, such as 10.1.0.0/16 (not ${bad.join(', ')})`,
      });
      return z.NEVER;
    }
    return parts;
  }),
  /** Per attempt of a webhook delivery: the time to wait for the answer. */
  WEBHOOK_TIMEOUT_SECONDS: int(15, 1, 120),
});

export function webhookSettings(e: z.output<typeof WebhookEnvSchema>) {
  return { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, timeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS };
}
