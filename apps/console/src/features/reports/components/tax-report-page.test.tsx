import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaxReport } from '@portal/contract';
import { fakeFetch, renderRoutes, staff } from '../../../test/render';
import TaxReportPage, { lastMonth } from './tax-report-page';

const REPORT: TaxReport = {
  from: '2025-01-01',
  to: '2025-01-31',
  rows: [
    {
      currency: 'eur',
      regime: 'domestic',
      country: 'DE',
      rateBp: 1900,
      invoices: 2,
      creditNotes: 1,
      invoicedNet: 10000,
      invoicedTax: 1900,
      creditedNet: 1000,
      creditedTax: 190,
      net: 9000,
      tax: 1710,
    },
    {
      currency: 'eur',
      regime: 'reverse_charge',
      country: 'FR',
      rateBp: 0,
      invoices: 1,
      creditNotes: 0,
      invoicedNet: 5000,
      invoicedTax: 0,
      creditedNet: 0,
      creditedTax: 0,
      net: 5000,
      tax: 0,
    },
  ],
  totals: [
    { currency: 'eur', taxedNet: 9000, tax: 1710, reverseChargeNet: 5000, exportNet: 0, untaxedNet: 0, net: 14000, gross: 15710 },
  ],
};

afterEach(() => vi.unstubAllGlobals());

function render(answers: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([{ path: '/reports/tax', element: <TaxReportPage /> }], {
    path: '/reports/tax?from=2025-01-01&to=2025-01-31',
    as: staff('billing'),
  });
  return fetch;
}

describe('the tax report page', () => {
  it('shows the totals per currency and a line per regime, country and rate, with the CSV of the same period', async () => {
    render({ 'GET /api/console/reports/tax?from=2025-01-01&to=2025-01-31': { status: 200, body: REPORT } });
    const totals = await screen.findByRole('region', { name: 'Totals in EUR' });
    expect(within(totals).getByText('Tax collected').nextSibling).toHaveTextContent('€17.10');
    expect(within(totals).getByText('Reverse charge (net)').nextSibling).toHaveTextContent('€50.00');
    expect(within(totals).getByText('Total (gross)').nextSibling).toHaveTextContent('€157.10');
    const table = screen.getByRole('table', { name: 'Tax by regime, country and rate' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Domestic.*DE.*19 %.*2.*1 \(−€11\.90\).*€90\.00.*€17\.10/);
    expect(rows[2]).toHaveTextContent(/Reverse charge.*FR.*0 %/);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/console/reports/tax?from=2025-01-01&to=2025-01-31&format=csv',
    );
  });

  it('shows the server’s message for a bad period', async () => {
    render({
      'GET /api/console/reports/tax?from=2025-01-01&to=2025-01-31': { status: 200, body: REPORT },
      'GET /api/console/reports/tax?from=2025-02-01&to=2025-01-31': {
        status: 400,
        body: { code: 'VALIDATION', message: 'The start date (from) must be on or before the end date (to)' },
      },
    });
    await screen.findByRole('table');
    const from = screen.getByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2025-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('The start date (from) must be on or before the end date (to)')).toBeInTheDocument();
  });

  it('defaults to the last calendar month', () => {
    expect(lastMonth(new Date('2026-03-15T12:00:00Z'))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(lastMonth(new Date('2026-01-01T00:00:00Z'))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});
