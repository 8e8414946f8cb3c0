import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/console/staff.service';
import { createStaffActions, type StaffActions, type Why } from '../../src/console/staff-actions';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { changedTables, dbStateReader, settle } from '../fuzz/db-state';
import { consoleFixtures, type ConsoleFixtures } from './fixtures';

/**
 * Issue 26, audit: every staff action's audit row is written in the same transaction as the
 * action, or the action does not happen. With the audit log failing, each action fails and leaves
 * the database (the customer's activity, licenses, subscriptions, invoices, the outbox's e-mails)
 * exactly as it was. Before, seven actions wrote their audit row after the action had committed.
 */

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let reader: Awaited<ReturnType<typeof dbStateReader>>;
let broken: StaffActions;
let working: StaffActions;

beforeAll(async () => {
  t = await buildConsoleTestApp();
  fx = await consoleFixtures(t);
  reader = await dbStateReader(t);
  const { services } = t.app.ctx;
  const deps = {
    db: t.db,
    clock: t.clock,
    users: services.users,
    licenses: services.licenses,
    billing: services.billing,
    auth: services.auth,
    limitLinkAddress: t.app.ctx.limitLinkAddress,
    sessions: services.sessions,
    account: services.account,
    activity: services.audit,
  };
  broken = createStaffActions({
    ...deps,
    staff: {
      record: async () => {
        throw new Error('the staff audit log cannot be written');
      },
    },
  });
  working = createStaffActions({ ...deps, staff: t.consoleApp.consoleCtx.staff });
});
afterAll(() => t?.close());

const why: Why = { actor: CLI_ACTOR, reason: 'Customer asked on ticket #4711' };

/** Each action of the console, on a fresh subject made by the fixtures. */
const ACTIONS: Array<[string, () => Promise<(a: StaffActions) => Promise<unknown>>]> = [
  [
    'suspendLicense',
    async () => {
      const key = await fx.license();
      return (a) => a.suspendLicense(why, key);
    },
  ],
  [
    'resumeLicense',
    async () => {
      const key = await fx.suspendedLicense();
      return (a) => a.resumeLicense(why, key);
    },
  ],
  [
    'extendLicense',
    async () => {
      const key = await fx.license();
      return (a) => a.extendLicense(why, key, 30);
    },
  ],
  [
    'releaseNode',
    async () => {
      const n = await fx.node();
      return (a) => a.releaseNode(why, n.licenseKey, n.nodeId);
    },
  ],
  ['issueLicense', async () => (a) => a.issueLicense(why, fx.userId, 2, 30)],
  [
    'sendSignInLink',
    async () => {
      const id = await fx.customer();
      return (a) => a.sendSignInLink(why, id);
    },
  ],
  [
    'endSessions',
    async () => {
      const id = await fx.customer();
      return (a) => a.endSessions(why, id);
    },
  ],
  [
    'cancelAtPeriodEnd',
    async () => {
      const id = await fx.subscription();
      return (a) => a.cancelAtPeriodEnd(why, id);
    },
  ],
  [
    'reactivateSubscription',
    async () => {
      const id = await fx.cancelledSubscription();
      return (a) => a.reactivateSubscription(why, id);
    },
  ],
  [
    'cancelNow',
    async () => {
      const id = await fx.subscription();
      return (a) => a.cancelNow(why, id);
    },
  ],
  [
    'retryPayment',
    async () => {
      const id = await fx.pastDueSubscription();
      return (a) => a.retryPayment(why, id);
    },
  ],
  [
    'refundInvoice',
    async () => {
      const id = await fx.paidInvoice();
      return (a) => a.refundInvoice(why, id, undefined);
    },
  ],
  [
    'creditInvoice',
    async () => {
      const id = await fx.paidInvoice();
      return (a) => a.creditInvoice(why, id, 100);
    },
  ],
  [
    'updateBillingDetails',
    async () => {
      const id = await fx.customer();
      return (a) =>
        a.updateBillingDetails(why, id, {
          legalName: 'Client GmbH',
          country: 'DE',
          line1: 'Hauptstr. 1',
          line2: null,
          postalCode: '10115',
          city: 'Berlin',
          region: null,
          taxId: null,
          recipients: [],
        });
    },
  ],
  [
    'deleteCustomer',
    async () => {
      const id = await fx.customer();
      return (a) => a.deleteCustomer(why, id);
    },
  ],
];

describe('a staff action whose audit row cannot be written', () => {
  it('covers every action of the console', () => {
    expect(ACTIONS.map(([name]) => name).sort()).toEqual(Object.keys(working).sort());
  });

  it.each(ACTIONS)('%s: fails and changes nothing; with the audit log working it goes through', async (_name, make) => {
    const act = await make();
    await settle(t);
    const before = await reader.read();
    await expect(act(broken)).rejects.toThrow('the staff audit log cannot be written');
    await settle(t);
    expect(changedTables(before, await reader.read()), 'tables changed').toEqual([]);
    // The same action on the same subject goes through once the audit log works: the failure above
    // was the audit row's, not a refusal of the action.
    await act(working);
    await settle(t);
    expect(changedTables(before, await reader.read())).toEqual(expect.arrayContaining([expect.stringMatching(/^staff_audit /)]));
  });
});
