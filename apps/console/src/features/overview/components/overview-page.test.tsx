import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { anOverview } from '../../../test/fixtures';
import { fakeFetch, renderRoutes } from '../../../test/render';
import OverviewPage from './overview-page';

afterEach(() => vi.unstubAllGlobals());

function renderOverview(answers: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([{ path: '/overview', element: <OverviewPage /> }], { path: '/overview' });
  return fetch;
}

describe('OverviewPage', () => {
  it('shows MRR, ARR and the counts, to the cent, and marks what needs attention', async () => {
    renderOverview({ 'GET /api/console/overview': { status: 200, body: anOverview() } });
    expect(await screen.findByText('$12,345.00')).toBeInTheDocument();
    expect(screen.getByText('$148,140.00')).toBeInTheDocument();
    expect(screen.getByText('321')).toBeInTheDocument();
    expect(screen.getByText('987')).toBeInTheDocument();
    expect(screen.getByText('+1.7% on last month')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Monthly recurring revenue' })).toBeInTheDocument();
  });

  it('says what MRR counts and what the number under the active subscriptions counts', async () => {
    const o = anOverview();
    renderOverview({ 'GET /api/console/overview': { status: 200, body: o } });
    expect(await screen.findByText(/those set to cancel at the period end included until they end/)).toBeInTheDocument();
    // The description is there before the figures answer: wait for the figures themselves.
    expect(
      await screen.findByText(
        `${o.pastDueSubscriptions} past due; ${new Intl.NumberFormat().format(o.customers)} customer accounts in all`,
      ),
    ).toBeInTheDocument();
  });

  it('counts one customer account and one license in the singular', async () => {
    renderOverview({ 'GET /api/console/overview': { status: 200, body: { ...anOverview(), customers: 1, activeLicenses: 1 } } });
    expect(await screen.findByText(/1 customer account in all$/)).toBeInTheDocument();
    expect(screen.getByText('on 1 active license')).toBeInTheDocument();
  });

  it('shows the MRR at risk beside the failed payments, with a link to the failing subscriptions', async () => {
    renderOverview({ 'GET /api/console/overview': { status: 200, body: { ...anOverview(), mrrAtRisk: 1_234_567_890 } } });
    expect(await screen.findByText('MRR at risk')).toBeInTheDocument();
    expect(screen.getByText('$12,345,678.90')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '2 subscriptions in grace, payment failing' })).toHaveAttribute(
      'href',
      '/subscriptions?status=past_due',
    );
  });

  it('charts validations per day over the last 30 days, with their total', async () => {
    renderOverview({ 'GET /api/console/overview': { status: 200, body: anOverview() } });
    expect(await screen.findByRole('heading', { name: 'Validations per day' })).toBeInTheDocument();
    // 30 days of 40,000 + i × 100 validations.
    expect(screen.getByText(/1,243,500 in the last 30 days/)).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'License validations answered valid and refused in each of the last 30 days' }),
    ).toBeInTheDocument();
  });

  it('shows skeletons while loading, then the error with Retry', async () => {
    const fetch = renderOverview({
      'GET /api/console/overview': { status: 500, body: { message: 'The database is not answering', code: 'INTERNAL' } },
    });
    expect(screen.getByLabelText('Loading the overview')).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByText('The database is not answering')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(fetch.calls.filter((c) => c.path === '/api/console/overview').length).toBeGreaterThanOrEqual(2);
  });
});
