import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, webhookHeaders } from './webhook-signing';

/** Our signatures, checked by the Standard Webhooks reference library (a verifier we did not write). */
describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ type: 'license.issued', timestamp: '2026-11-27T00:00:00.000Z', data: {} });

  it('verify with the endpoint secret, and fail with another or a changed body', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders([secret], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'license.issued' });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('issued', 'expired'), headers)).toThrow();
  });

  it('during a rotation both the new and the previous secret verify', () => {
    const [next, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders([next, previous], 'msg_2', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(next).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
  });

  it("each attempt is signed with its own time: a replay of an old attempt fails the receiver's tolerance", () => {
    const secret = generateWebhookSecret();
    const old = webhookHeaders([secret], 'msg_3', new Date(Date.now() - 10 * 60_000), body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/too old/);
    const fresh = webhookHeaders([secret], 'msg_3', new Date(), body);
    expect(fresh['webhook-id']).toBe(old['webhook-id']);
    expect(fresh['webhook-timestamp']).not.toBe(old['webhook-timestamp']);
  });
});
