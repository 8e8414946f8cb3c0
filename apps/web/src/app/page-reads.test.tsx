import { screen, waitFor } from '@testing-library/react';
import { QueryStatus } from '@reduxjs/toolkit/query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID, pageFirstReads, subscriptionInvoicesPath, type Subscription } from '@portal/contract';
import { aDownload, aSubscription, aSupportPlan } from '../test/fixtures';
import { ada, portalConfig, userState } from '../test/render';
import { renderAppAt } from '../test/render-app';
import { billingApi } from '../features/billing/api';
import { endFirstAnswers, resetFirstAnswers } from '../lib/first-answers';
import { answeredOrLater, FIRST_READS_WAIT_MS, startPageReads } from './page-reads';
import { makeStore, type AppStore } from './store';
import { fakeFetch } from '@portal/ui/test';

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const running: Subscription = aSubscription({
  stripeId: 'sub_live',
  currentPeriodStart: days(-10),
  currentPeriodEnd: days(20),
  plan: 'Node license',
  unitAmount: 2500,
  licenseKey: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
});

/**
 * A customer with one running subscription. Every read has an answer: a failed read is asked again
 * when a page subscribes to it, as it should be.
 */
function stubApi() {
  const fake = fakeFetch({
    'GET /api/config': { status: 200, body: portalConfig },
    'GET /api/billing/subscriptions/': { status: 200, body: { items: [running] } },
    'GET /api/billing/subscriptions/sub_live/invoices': { status: 200, body: { items: [] } },
    'GET /api/billing/methods/': { status: 200, body: { items: [] } },
    'GET /api/billing/details': { status: 200, body: { details: null } },
    'GET /api/billing/prices': {
      status: 200,
      body: { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 },
    },
    'GET /api/products/licenses': {
      status: 200,
      body: { licenses: 1, activeNodes: 0, maxNodes: 3, atLimit: [], expiringSoon: [], suspended: [], suspensionMessages: {} },
    },
    'GET /api/products/support': { status: 200, body: aSupportPlan(3) },
    'GET /api/products/pce/download': { status: 200, body: aDownload(days(1)) },
    'GET /api/licenses/': { status: 200, body: { items: [], total: 0, page: 1, size: 10 } },
  });
  vi.stubGlobal('fetch', fake.fn);
  // The configuration is the shell's, asked for at start-up beside the session (main.tsx).
  return () => fake.calls.filter((c) => c.method === 'GET' && c.path !== '/api/config').map((c) => c.path);
}

/** Until no read is in flight, including those an answer starts (a subscription's invoices). */
async function settled(store: AppStore, reads: () => string[]) {
  let seen = -1;
  while (seen !== reads().length) {
    seen = reads().length;
    await waitFor(() => {
      const queries = Object.values(store.getState().api.queries);
      expect(queries.every((q) => q?.status !== QueryStatus.pending)).toBe(true);
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** What each page shows once all its first reads have answered (the billing details card mounts last). */
const SHOWN: Record<string, Array<() => Promise<HTMLElement>>> = {
  '/app/dashboard': [
    () => screen.findByText('Standard support'),
    () => screen.findByText('3.0.0'),
    () => screen.findByText('0 of 3'),
  ],
  '/app/billing': [() => screen.findByText(/No invoices yet/), () => screen.findByLabelText('Address line 1')],
  '/app/licenses': [() => screen.findByText('No licenses yet')],
  '/app/support': [() => screen.findByText('Standard support')],
  '/app/download-iso': [() => screen.findByText('Version 3.0.0')],
};

async function renderPage(store: AppStore, path: string) {
  await renderAppAt(store, path);
  await screen.findByRole('heading', { level: 1 });
  for (const shown of SHOWN[path] ?? []) await shown();
}

const at = (path: string) => ({ pathname: path, search: '' });

describe('startPageReads', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it.each(['/app/dashboard', '/app/billing', '/app/licenses', '/app/support', '/app/download-iso'])(
    'starts the reads %s makes as it first renders, and no other, so the page asks for nothing more',
    async (path) => {
      // What the page asks for by itself.
      let reads = stubApi();
      const alone = makeStore(userState(ada));
      await renderPage(alone, path);
      await settled(alone, reads);
      const pageReads = reads();
      document.body.innerHTML = '';

      // Started ahead of the page: the same reads, then the page finds each in the cache.
      reads = stubApi();
      const ahead = makeStore(userState(ada));
      // Its promise settles once every read has answered, those an answer starts included.
      await startPageReads(ahead, at(path));
      const started = reads();
      expect(Object.values(ahead.getState().api.queries).every((q) => q?.status === QueryStatus.fulfilled)).toBe(true);
      await settled(ahead, reads);
      expect(reads()).toEqual(started);
      expect(started.length).toBeGreaterThan(0);
      expect(new Set(started)).toEqual(new Set(pageReads));
      // The reads whose answers the server puts in the page (docs/decisions/139).
      const sent = pageFirstReads(path, new URLSearchParams())!;
      expect(new Set(started)).toEqual(
        new Set(
          [...sent.paths, ...(sent.invoicesOfEachSubscription ? [subscriptionInvoicesPath('sub_live')] : [])].map(
            (p) => `/api${p}`,
          ),
        ),
      );
      await renderPage(ahead, path);
      await settled(ahead, reads);
      expect(reads()).toEqual(started);
    },
  );

  it('reads the page of the licenses list the address names', async () => {
    const reads = stubApi();
    const store = makeStore(userState(ada));
    await startPageReads(store, { pathname: '/app/licenses', search: '?page=3' });
    expect(reads()).toContain('/api/licenses/?page=3&size=10');
  });

  it('asks for nothing without a session, before onboarding, or on a page it does not know', async () => {
    const reads = stubApi();
    await startPageReads(makeStore(userState(null)), at('/app/dashboard'));
    await startPageReads(makeStore(userState({ ...ada, onboarded: false })), at('/app/dashboard'));
    await startPageReads(makeStore(userState(ada)), at('/app/profile-of-nobody'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads()).toEqual([]);
  });

  it('takes the answers the server put in the page instead of asking, and asks again once the start-up has ended', async () => {
    const reads = stubApi();
    const answers = {
      '/billing/subscriptions/': { status: 200, body: { items: [running] } },
      '/licenses/?page=2&size=10': { status: 200, body: { items: [], total: 0, page: 2, size: 10 } },
    };
    document.body.innerHTML = `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${JSON.stringify(answers)}</script>`;
    resetFirstAnswers();
    const store = makeStore(userState(ada));
    await startPageReads(store, { pathname: '/app/licenses', search: '?page=2' });
    expect(reads()).toEqual([]);
    expect(billingApi.endpoints.listSubscriptions.select()(store.getState()).data).toEqual({ items: [running] });
    // Read once: the element is gone, and a later read of the same path asks the API.
    expect(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)).toBeNull();
    endFirstAnswers();
    await store.dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, { subscribe: false, forceRefetch: true }));
    expect(reads()).toEqual(['/api/billing/subscriptions/']);
  });

  it('settles once a read has failed as well', async () => {
    const failing = fakeFetch({ 'GET /api/licenses/': { status: 500, body: { error: 'Internal error' } } });
    vi.stubGlobal('fetch', failing.fn);
    const store = makeStore(userState(ada));
    await startPageReads(store, at('/app/licenses'));
    const queries = Object.values(store.getState().api.queries);
    expect(queries.map((q) => q?.status)).toContain(QueryStatus.rejected);
    expect(queries.every((q) => q?.status !== QueryStatus.pending)).toBe(true);
  });
});

describe('answeredOrLater', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('settles with the reads, or after FIRST_READS_WAIT_MS when they have not answered by then', async () => {
    vi.useFakeTimers();
    let answered = false;
    void answeredOrLater(Promise.resolve()).then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);

    let late = false;
    void answeredOrLater(new Promise(() => {})).then(() => (late = true));
    await vi.advanceTimersByTimeAsync(FIRST_READS_WAIT_MS - 1);
    expect(late).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toBe(true);

    let failed = false;
    void answeredOrLater(Promise.reject(new Error('offline'))).then(() => (failed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toBe(true);
  });
});
