import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { settle } from '../fuzz/db-state';
import { idOf } from './fixtures';

/**
 * Issue 26: "Resend sign-in link" had no rate limit (six mails in a second). It counts against the
 * portal's per-address limit (RATE_LIMIT_LINK_PER_ADDRESS a minute), on the same counter as the
 * portal's own link requests, and a refused resend sends nothing and writes nothing.
 */

let t: ConsoleTestApp;
let support: string;
beforeAll(async () => {
  t = await buildConsoleTestApp({ RATE_LIMIT_LINK_PER_ADDRESS: '3' });
  await t.addStaff('helpdesk@vendor.example', 'support');
  support = await t.signInStaff('helpdesk@vendor.example');
});
afterAll(() => t?.close());

const reason = { reason: 'Cannot find the e-mail' };
const mailsTo = (email: string) => t.mailer.messages.filter((m) => m.to === email).length;
const auditRows = async () =>
  (await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit?size=100', headers: { cookie: support } })).json()
    .total as number;

async function resend(userId: string) {
  const res = await t.consoleApp.inject({
    method: 'POST',
    url: `/api/console/customers/${userId}/sign-in-link`,
    headers: { cookie: support },
    payload: reason,
  });
  await settle(t);
  return res;
}

describe('resending a sign-in link', () => {
  it('allows as many links a minute as the portal does for an address, then answers 429 and sends nothing', async () => {
    const email = 'resend@example.com';
    await t.signIn(email); // one link already (the portal's own request)
    const userId = await idOf(t, email);
    const sent = mailsTo(email);
    expect((await resend(userId)).statusCode).toBe(200);
    expect((await resend(userId)).statusCode).toBe(200);
    const audit = await auditRows();

    const refused = await resend(userId);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.json().message).toMatch(/Too many sign-in links were requested for this address/);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(mailsTo(email)).toBe(sent + 2);
    expect(await auditRows()).toBe(audit);

    // The portal's own request for the address shares the counter.
    const portal = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email } });
    expect(portal.statusCode).toBe(429);
  });
});
