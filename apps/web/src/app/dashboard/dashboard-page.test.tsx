import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aDownload, aSupportPlan } from '../../test/fixtures';
import { ada, renderRoutes, userState } from '../../test/render';
import { DashboardPage } from './dashboard-page';
import { fakeFetch } from '@portal/ui/test';

describe('DashboardPage (composed)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads subscriptions, cards, the support plan, the latest ISO and the license figures', async () => {
    const end = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const fetch = fakeFetch({
      'GET /api/billing/subscriptions/': {
        status: 200,
        body: {
          items: [
            {
              stripeId: 'sub_1',
              status: 'active',
              quantity: 2,
              interval: 'year',
              currentPeriodStart: new Date().toISOString(),
              currentPeriodEnd: end,
              cancelAtPeriodEnd: false,
              plan: 'PCE',
              unitAmount: 30000,
              currency: 'eur',
              licenseKey: null,
            },
          ],
        },
      },
      'GET /api/billing/methods/': { status: 200, body: { items: [] } },
      'GET /api/products/support': { status: 200, body: aSupportPlan(2) },
      'GET /api/products/pce/download': { status: 200, body: aDownload(end) },
      'GET /api/products/licenses': {
        status: 200,
        body: { licenses: 1, activeNodes: 0, maxNodes: 2, atLimit: [], expiringSoon: [], suspended: [], suspensionMessages: {} },
      },
    });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/app/dashboard', element: <DashboardPage /> }], { path: '/app/dashboard', preloaded: userState(ada) });
    expect(await screen.findByText('2 nodes · yearly')).toBeInTheDocument();
    expect(await screen.findByText('3.0.0')).toBeInTheDocument();
    expect(await screen.findByText('Standard support')).toBeInTheDocument();
    expect(await screen.findByText('0 of 2')).toBeInTheDocument();
    // A renewing subscription without a card to charge.
    const attention = screen.getByRole('region', { name: 'Needs your attention' });
    expect(within(attention).getByText('No card for the next renewal')).toBeInTheDocument();
    // Subscribed, no node active yet: the next step is downloading.
    const steps = screen.getByRole('region', { name: 'Get started' });
    expect(within(steps).getByText('Subscribed')).toBeInTheDocument();
    expect(fetch.calls.map((c) => c.path).sort()).toEqual([
      '/api/billing/methods/',
      '/api/billing/subscriptions/',
      '/api/products/licenses',
      '/api/products/pce/download',
      '/api/products/support',
    ]);
  });
});
