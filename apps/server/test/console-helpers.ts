import { eq } from 'drizzle-orm';
import { STAFF_TOKEN_LIMIT, type StaffRole } from '@portal/contract';
import { buildConsoleApp } from '../src/console/console-app';
import { staffTokensRepository } from '../src/console/staff-tokens.repository';
import { staffApiTokens } from '../src/db/schema/index';
import { CLI_ACTOR } from '../src/console/staff.service';
import { buildTestApp } from './helpers';

/** The console's origin in the API tests (CONSOLE_PUBLIC_URL's default for port 3001). */
export const CONSOLE_ORIGIN = 'http://localhost:3001';

/**
 * The customer app of buildTestApp and the console app beside it, on the same database, mailbox
 * and clock, as server.ts puts them together.
 */
export async function buildConsoleTestApp(env: Record<string, string> = {}) {
  // Most console tests are about what a role may do, not about the second factor: their staff
  // need none unless a test asks (test/console/second-factor*.test.ts run with the default).
  const portal = await buildTestApp({ CONSOLE_REQUIRE_SECOND_FACTOR: 'none', ...env });
  const consoleApp = await buildConsoleApp(portal.config, {
    services: portal.app.ctx.services,
    limitLinkAddress: portal.app.ctx.limitLinkAddress,
    db: portal.db,
    clock: portal.clock,
    logger: false,
    serveWeb: false,
  });
  await consoleApp.ready();

  /** Adds a staff member through the staff service (as the CLI does). */
  async function addStaff(email: string, role: StaffRole) {
    return consoleApp.consoleCtx.staff.add(email, role, CLI_ACTOR, 'Test set-up');
  }

  /** The secret of the console sign-in link last e-mailed to `email`. */
  async function consoleLinkFor(email: string): Promise<string | undefined> {
    await portal.app.ctx.services.outbox.kick();
    const mail = [...portal.mailer.messages].reverse().find((m) => m.to === email.toLowerCase());
    return mail?.text.match(/localhost:3001\/login\?link=([A-Za-z0-9_-]{43})/)?.[1];
  }

  /** Signs a staff member in through the e-mailed link; answers the cookie header value. */
  async function signInStaff(email: string): Promise<string> {
    const req = await consoleApp.inject({ method: 'POST', url: '/api/console/auth/link', payload: { email } });
    if (req.statusCode !== 202) throw new Error(`console link request failed: ${req.statusCode} ${req.body}`);
    const secret = await consoleLinkFor(email);
    if (!secret) throw new Error(`no console sign-in e-mail for ${email}`);
    const res = await consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    if (res.statusCode !== 200) throw new Error(`console sign-in failed: ${res.statusCode} ${res.body}`);
    const c = res.cookies.find((x) => x.name === 'portal_console_session');
    if (!c) throw new Error('no console session cookie');
    return `portal_console_session=${c.value}`;
  }

  /** A signed-in member of each role: their cookies. */
  async function staffOfEachRole(): Promise<Record<StaffRole, string>> {
    const roles: StaffRole[] = ['owner', 'support', 'billing'];
    const out = {} as Record<StaffRole, string>;
    for (const role of roles) {
      await addStaff(`${role}@vendor.example`, role);
      out[role] = await signInStaff(`${role}@vendor.example`);
    }
    return out;
  }

  let tokens = 0;
  /**
   * A staff API token of `role`, created by the owner TOKEN_OWNER (added when missing) through the
   * service, as the console's page does; `revoked` and `expired` ones are made so afterwards.
   */
  async function staffToken(role: StaffRole, state: 'usable' | 'revoked' | 'expired' = 'usable') {
    const owner = (await consoleApp.consoleCtx.staff.findActiveByEmail(TOKEN_OWNER)) ?? (await addStaff(TOKEN_OWNER, 'owner'));
    const actor = { id: owner.id, email: owner.email };
    // The tests make more tokens than an install holds at once: the earlier ones make room.
    if ((await staffTokensRepository.countOpen(portal.db)) >= STAFF_TOKEN_LIMIT - 5) {
      await staffTokensRepository.revokeCreatedBy(portal.db, owner.id, portal.clock.now());
    }
    const { token, secret } = await consoleApp.consoleCtx.tokens.create(actor, {
      name: `${role} script ${++tokens}`,
      role,
      expiresInDays: 30,
      reason: 'Test set-up',
    });
    if (state === 'revoked') await consoleApp.consoleCtx.tokens.revoke(actor, token.id, 'Test set-up');
    if (state === 'expired') {
      await portal.db
        .update(staffApiTokens)
        .set({ expiresAt: new Date(portal.clock.now().getTime() - 1000) })
        .where(eq(staffApiTokens.id, token.id));
    }
    return { id: token.id, name: token.name, secret, authorization: `Bearer ${secret}` };
  }

  return {
    ...portal,
    portal: portal.app,
    staffToken,
    consoleApp,
    addStaff,
    consoleLinkFor,
    signInStaff,
    staffOfEachRole,
    async close() {
      await consoleApp.close();
      await portal.close();
    },
  };
}
/** The owner who creates the tests' staff API tokens. */
export const TOKEN_OWNER = 'token-owner@vendor.example';

export type ConsoleTestApp = Awaited<ReturnType<typeof buildConsoleTestApp>>;
