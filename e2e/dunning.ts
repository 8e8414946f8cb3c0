/**
 * A failing payment in the browser tests. The shared test server keeps its data in PGlite inside
 * its own process, out of a test's reach, and a renewal comes a month after the purchase; so a
 * file about failing payments starts a server of its own on the machine's PostgreSQL (a new
 * database, dropped at the end) and moves a subscription's paid period to its end, as a month
 * passing would. The server's own renewal worker then charges the card, which fails as an expired
 * card does: the subscription is past due, in grace, exactly as in production.
 *
 *   let portal: DataPortal;
 *   beforeAll(async () => { portal = await startPortalWithData(); });
 *   afterAll(() => portal?.stop());
 *   …
 *   const buyer = await customer({ subscription: 2, target: portal.target });
 *   await failRenewal(portal, buyer.stripeId);
 */
import pg from 'pg';
import { expect, HANG_GUARD_MS, type Target } from './fixtures';
import { startPortal, type Portal } from './portal-server';

/** The machine's PostgreSQL (CI and every development machine run one; DESIGN.md, the machines). */
export const MACHINE_POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type DataPortal = Portal & {
  databaseUrl: string;
  /** The portal's target (`customer({ target })`). */
  target: Target;
  /** The console's target (`staff(role, { target })` where the console fixtures take one). */
  consoleTarget: Target;
  /** Runs one statement on the server's database. */
  sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
};

/** Starts a test server whose data the test reaches (see the top of this file). */
export async function startPortalWithData(env: Record<string, string> = {}): Promise<DataPortal> {
  const portal = await startPortal(env, { postgres: MACHINE_POSTGRES });
  const databaseUrl = portal.databaseUrl!;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return {
    ...portal,
    databaseUrl,
    target: { baseUrl: portal.baseUrl, dataDir: portal.dataDir },
    consoleTarget: { baseUrl: portal.consoleUrl, dataDir: portal.dataDir },
    sql: (text, values) => pool.query(text, values),
    stop: async () => {
      await pool.end();
      await portal.stop();
    },
  };
}

/** Every card of the subscription's owner fails its charges from now on (an expired or emptied card). */
export async function cardsStartFailing(portal: DataPortal, stripeId: string) {
  await setCardsBehaviour(portal, stripeId, 'declined');
}

/** Every card of the subscription's owner pays again (the customer's bank sorted it out). */
export async function cardsWorkAgain(portal: DataPortal, stripeId: string) {
  await setCardsBehaviour(portal, stripeId, 'succeeds');
}

async function setCardsBehaviour(portal: DataPortal, stripeId: string, behaviour: 'declined' | 'succeeds') {
  await portal.sql(
    `update payment_methods set behaviour = $2
      where customer_id = (select c.provider_customer_id from customers c
                             join subscriptions s on s.user_id = c.user_id where s.provider_id = $1)`,
    [stripeId, behaviour],
  );
}

/**
 * The subscription's renewal fails: its owner's cards start failing, its paid period ends now (as
 * a month passing would), and the server's renewal worker (every 30 s) charges and fails. Answers
 * once the subscription is past due, with its grace's end and next retry set by the server.
 */
export async function failRenewal(portal: DataPortal, stripeId: string) {
  await cardsStartFailing(portal, stripeId);
  await portal.sql(
    `update subscriptions
        set current_period_start = current_period_start - (current_period_end - now()),
            current_period_end = now()
      where provider_id = $1`,
    [stripeId],
  );
  await expect
    .poll(async () => (await portal.sql('select status from subscriptions where provider_id = $1', [stripeId])).rows[0]?.status, {
      timeout: HANG_GUARD_MS,
      interval: 500,
    })
    .toBe('past_due');
}
