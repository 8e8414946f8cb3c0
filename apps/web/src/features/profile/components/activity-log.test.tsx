import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEvent, Page } from '@portal/contract';
import { ada, renderRoutes, userState } from '../../../test/render';
import { ActivityLog, breakableNames } from './activity-log';
import { fakeFetch } from '@portal/ui/test';

const at = new Date(Date.now() - 5 * 60_000).toISOString();
const page: Page<AuditEvent> = {
  items: [
    { id: 'a', action: 'license_issued', summary: 'Issued license ABCD for 3 nodes, valid until 2026-12-24', createdAt: at },
    {
      id: 'b',
      action: 'subscription_cancelled',
      summary: 'Cancelled 3 nodes, monthly; it ends on December 24, 2026',
      createdAt: at,
    },
  ],
  page: 1,
  size: 10,
  total: 2,
};

function renderLog(answer: { status: number; body: unknown }) {
  const fake = fakeFetch({ 'GET /api/users/activity?page=1&size=10': answer });
  vi.stubGlobal('fetch', fake.fn);
  renderRoutes([{ path: '/', element: <ActivityLog /> }], { preloaded: userState(ada) });
  return fake;
}

describe('ActivityLog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the dates inside the summaries in the one date style', async () => {
    renderLog({ status: 200, body: page });
    const table = await screen.findByRole('table', { name: 'Activity' });
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 11, 24));
    expect(within(table).getByText(`Issued license ABCD for 3 nodes, valid until ${day}`)).toBeInTheDocument();
    expect(within(table).getByText(`Cancelled 3 nodes, monthly; it ends on ${day}`)).toBeInTheDocument();
    expect(within(table).queryByText(/2026-12-24|December 24/)).toBeNull();
  });

  it('says "now", never "in 5 seconds", for an entry newer than the page\'s clock', async () => {
    const soon = new Date(Date.now() + 5_000).toISOString();
    renderLog({ status: 200, body: { ...page, items: [{ ...page.items[0]!, id: 'c', createdAt: soon }], total: 1 } });
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(within(table).getByText('now')).toBeInTheDocument();
    expect(within(table).queryByText(/^in /)).toBeNull();
  });

  it('offers Retry when the log could not be read', async () => {
    const fake = renderLog({ status: 500, body: { message: 'Internal Server Error', code: 'INTERNAL' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Internal Server Error');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fake.calls.length).toBeGreaterThanOrEqual(2));
  });
});

describe('breakableNames', () => {
  it('lets a hostname wrap after its dots, never an amount', () => {
    const { container } = render(<p>{breakableNames('Activated node pve-01.cluster.example.com; paid $75.00.')}</p>);
    expect(container.innerHTML).toBe('<p>Activated node pve-01.<wbr>cluster.<wbr>example.<wbr>com; paid $75.00.</p>');
    expect(container.textContent).toBe('Activated node pve-01.cluster.example.com; paid $75.00.');
  });
});
