import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffActions, type StaffActions } from '../../src/console/staff-actions';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { changedTables, dbStateReader, settle } from '../fuzz/db-state';
import { consoleFixtures, type ConsoleFixtures } from './fixtures';

/**
 * Every staff action writes its audit row in the transaction of the action, or the action does not
 * happen: with a staff audit log that refuses every row, each action fails and changes nothing
 * (before, the refunds, credits, cancellations, node releases, sign-in links and deletions
 * committed first and wrote their audit row afterwards).
 */
let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let actions: StaffActions;
let reader: Awaited<ReturnType<typeof dbStateReader>>;

beforeAll(async () => {
  t = await buildConsoleTestApp();
  fx = await consoleFixtures(t);
  reader = await dbStateReader(t);
  const s = t.app.ctx.services;
  actions = createStaffActions({
    db: t.db,
    clock: t.clock,
    staff: {
      record: async () => {
        throw new Error('the staff audit log refuses this row');
      },
    },
    users: s.users,
    licenses: s.licenses,
    billing: s.billing,
    auth: s.auth,
    sessions: s.sessions,
    account: s.account,
    activity: s.audit,
  });
});
afterAll(() => t?.close());

const why = { actor: { id: null, email: 'vendor-cli' }, reason: 'Customer asked on ticket #4711' };

/** Each action: its inputs made first (they change the database), then the action itself. */
const CASES: Array<[keyof StaffActions, () => Promise<() => Promise<unknown>>]> = [
  [
    'suspendLicense',
    async () =>
      (
        (key) => () =>
          actions.suspendLicense(why, key)
      )(await fx.license()),
  ],
  [
    'resumeLicense',
    async () =>
      (
        (key) => () =>
          actions.resumeLicense(why, key)
      )(await fx.suspendedLicense()),
  ],
  ['extendLicense', async () => () => actions.extendLicense(why, fx.a.ids.licenseKey!, 30)],
  [
    'releaseNode',
    async () =>
      (
        (n) => () =>
          actions.releaseNode(why, n.licenseKey, n.nodeId)
      )(await fx.node()),
  ],
  ['issueLicense', async () => () => actions.issueLicense(why, fx.userId, 2, 30)],
  ['sendSignInLink', async () => () => actions.sendSignInLink(why, fx.userId)],
  [
    'endSessions',
    async () =>
      (
        (id) => () =>
          actions.endSessions(why, id)
      )(await fx.customer()),
  ],
  [
    'cancelAtPeriodEnd',
    async () =>
      (
        (id) => () =>
          actions.cancelAtPeriodEnd(why, id)
      )(await fx.subscription()),
  ],
  [
    'reactivateSubscription',
    async () =>
      (
        (id) => () =>
          actions.reactivateSubscription(why, id)
      )(await fx.cancelledSubscription()),
  ],
  [
    'cancelNow',
    async () =>
      (
        (id) => () =>
          actions.cancelNow(why, id)
      )(await fx.subscription()),
  ],
  [
    'refundInvoice',
    async () =>
      (
        (id) => () =>
          actions.refundInvoice(why, id, undefined)
      )(await fx.paidInvoice()),
  ],
  [
    'creditInvoice',
    async () =>
      (
        (id) => () =>
          actions.creditInvoice(why, id, 500)
      )(await fx.paidInvoice()),
  ],
  [
    'deleteCustomer',
    async () =>
      (
        (id) => () =>
          actions.deleteCustomer(why, id)
      )(await fx.customer()),
  ],
];

describe('a staff action whose audit row cannot be written', () => {
  it('covers every staff action', () => {
    expect(CASES.map(([name]) => name).sort()).toEqual(Object.keys(actions).sort());
  });

  it.each(CASES)('%s fails and changes nothing', async (_, prepare) => {
    const act = await prepare();
    await settle(t);
    const before = await reader.read();
    await expect(act()).rejects.toThrow('the staff audit log refuses this row');
    await settle(t);
    expect(changedTables(before, await reader.read())).toEqual([]);
  });
});
