import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePath } from '@portal/contract';
import { staffAudit, webhookEndpoints } from '../../src/db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';

/** The console's webhook endpoints: what an owner sees and may do (roles: authorization-matrix.test.ts). */
let t: ConsoleTestApp;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  owner = (await t.staffOfEachRole()).owner;
});
afterAll(() => t?.close());

const reason = 'CRM integration, ticket #12';
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.consoleApp.inject({ method, url, headers: { cookie: owner }, ...(payload ? { payload } : {}) });

describe('webhook endpoints in the console', () => {
  it('shows the secret once: in the answer to creating, sealed at rest, never in the list', async () => {
    const res = await call('POST', consolePath('createWebhookEndpoint'), {
      url: 'https://crm.example.com/hooks/portal',
      description: 'CRM',
      eventTypes: ['customer.created', 'customer.created', 'license.issued'],
      reason,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { endpoint, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ enabled: true, eventTypes: ['customer.created', 'license.issued'], description: 'CRM' });
    const list = await call('GET', consolePath('listWebhookEndpoints'));
    expect(list.body).not.toContain(secret);
    expect(list.json().items.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    const audit = await t.db.select().from(staffAudit).where(eq(staffAudit.action, 'webhook_endpoint_created'));
    expect(audit.at(-1)).toMatchObject({ reason, subject: 'https://crm.example.com/hooks/portal' });
  });

  it('rotates the secret: a new one shown once, the previous one signing until the overlap ends', async () => {
    const { endpoint, secret } = (
      await call('POST', consolePath('createWebhookEndpoint'), { url: 'https://crm.example.com/rotate', reason })
    ).json();
    const res = await call('POST', consolePath('rotateWebhookSecret', { endpointId: endpoint.id }), { overlapHours: 48, reason });
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).not.toBe(secret);
    expect(new Date(rotated.endpoint.previousSecretExpiresAt).getTime()).toBe(t.clock.now().getTime() + 48 * 3_600_000);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = await t.db.select().from(webhookEndpoints);
    for (const body of [
      { url: 'ftp://crm.example.com/', reason },
      { url: 'https://user:pw@crm.example.com/', reason },
      { url: 'https://crm.example.com/', eventTypes: ['license.stolen'], reason },
      { url: 'https://crm.example.com/' },
      { url: 'https://crm.example.com/', reason, secret: 'whsec_mine' },
    ]) {
      const res = await call('POST', consolePath('createWebhookEndpoint'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await t.db.select().from(webhookEndpoints)).toEqual(before);
  });

  it('turns an endpoint off and on, and deletes it (404 afterwards)', async () => {
    const { endpoint } = (
      await call('POST', consolePath('createWebhookEndpoint'), { url: 'https://crm.example.com/x', reason })
    ).json();
    const path = consolePath('updateWebhookEndpoint', { endpointId: endpoint.id });
    expect((await call('PATCH', path, { enabled: false, reason })).json().endpoint.enabled).toBe(false);
    expect((await call('PATCH', path, { enabled: true, reason })).json().endpoint).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    expect((await call('DELETE', path, { reason })).statusCode).toBe(204);
    expect((await call('PATCH', path, { enabled: false, reason })).statusCode).toBe(404);
    expect((await call('GET', consolePath('listWebhookAttempts', { endpointId: endpoint.id }))).statusCode).toBe(404);
  });
});
