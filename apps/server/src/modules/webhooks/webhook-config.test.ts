import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

describe('webhook settings', () => {
  it('read WEBHOOK_ALLOW_PRIVATE as a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '10.20.0.0/16, 192.168.5.7,fd12::/64' }).webhooks).toEqual({
      allowPrivate: ['10.20.0.0/16', '192.168.5.7', 'fd12::/64'],
      timeoutSeconds: 15,
    });
    expect(loadConfig({}).webhooks.allowPrivate).toEqual([]);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '' }).webhooks.allowPrivate).toEqual([]);
  });

  it.each(['10.0.0.0/33', 'intranet', '10.0.0.0/8/1', '::1/129'])('refuse %s, naming the variable', (value) => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: value })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('read the timeout and the retention period', () => {
    expect(loadConfig({ WEBHOOK_TIMEOUT_SECONDS: '5', RETENTION_DAYS: '90' })).toMatchObject({
      webhooks: { timeoutSeconds: 5 },
      retentionDays: 90,
    });
    expect(() => loadConfig({ RETENTION_DAYS: '0' })).toThrow(/RETENTION_DAYS/);
  });
});
