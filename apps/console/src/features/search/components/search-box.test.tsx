import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchResult } from '@portal/contract';
import { fakeFetch, LocationProbe, renderRoutes } from '../../../test/render';
import { SearchBox } from './search-box';

const ADA = '5b0e5f9c-7d2a-4f61-9c3e-1a2b3c4d5e6f';
const results: SearchResult[] = [
  {
    kind: 'license',
    userId: ADA,
    label: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
    customer: 'Ada Lovelace <ada@acme.example>',
    subjectId: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
    match: 'exact',
  },
  {
    kind: 'customer',
    userId: ADA,
    label: 'Ada Lovelace',
    customer: 'Ada Lovelace <ada@acme.example>',
    subjectId: null,
    match: 'prefix',
  },
  {
    kind: 'node',
    userId: ADA,
    label: 'pve-ada-01',
    customer: 'Ada Lovelace <ada@acme.example>',
    subjectId: 'n1',
    match: 'prefix',
  },
];

function renderSearch(answers: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([
    {
      path: '*',
      element: (
        <>
          <SearchBox />
          <LocationProbe />
        </>
      ),
    },
  ]);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('SearchBox', () => {
  it('answers as you type, once the typing pauses, grouped by kind, the best match first', async () => {
    const fetch = renderSearch({ 'GET /api/console/search?q=ada': { status: 200, body: { items: results, more: false } } });
    await userEvent.type(screen.getByRole('searchbox', { name: /Search customers/ }), 'ada');

    const list = await screen.findByRole('listbox', { name: 'Search results' });
    await within(list).findByText('Ada Lovelace');
    expect(
      within(list)
        .getAllByText(/^(Customers|Licenses|Nodes)$/)
        .map((e) => e.textContent),
    ).toEqual(['Licenses', 'Customers', 'Nodes']);
    expect(within(list).getByText('Exact')).toBeInTheDocument();
    expect(within(list).queryByText(/More match than shown/)).not.toBeInTheDocument();
    // One request for the settled text, not one per key.
    expect(fetch.calls.map((c) => c.path)).toEqual(['/api/console/search?q=ada']);
  });

  it('opens the chosen result with the keyboard, at the section that holds it', async () => {
    renderSearch({ 'GET /api/console/search?q=pve': { status: 200, body: { items: results, more: false } } });
    const box = screen.getByRole('searchbox', { name: /Search customers/ });
    await userEvent.type(box, 'pve');
    await screen.findByText('pve-ada-01');
    // The first result (the license) is selected; two steps down is the node.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/customers/${ADA}#nodes`));
  });

  it('says when more match than it shows', async () => {
    renderSearch({ 'GET /api/console/search?q=ada': { status: 200, body: { items: results, more: true } } });
    await userEvent.type(screen.getByRole('searchbox', { name: /Search customers/ }), 'ada');
    expect(await screen.findByText(/More match than shown: type more/)).toBeInTheDocument();
  });

  it('says when nothing matches, and asks for two characters first', async () => {
    renderSearch({ 'GET /api/console/search?q=zzz': { status: 200, body: { items: [], more: false } } });
    const box = screen.getByRole('searchbox', { name: /Search customers/ });
    await userEvent.type(box, 'z');
    expect(await screen.findByText('Type at least 2 characters')).toBeInTheDocument();
    await userEvent.type(box, 'zz');
    expect(await screen.findByText(/No customer, license, node, subscription or invoice matches “zzz”/)).toBeInTheDocument();
  });
});

describe('SearchBox results', () => {
  const customer: SearchResult = {
    kind: 'customer',
    userId: ADA,
    label: 'Ada Lovelace <ada@acme.example>, Acme',
    customer: 'Ada Lovelace <ada@acme.example>',
    subjectId: null,
    match: 'exact',
  };

  it('names a customer once: the name, then the e-mail and company', async () => {
    renderSearch({ 'GET /api/console/search?q=ada': { status: 200, body: { items: [customer], more: false } } });
    await userEvent.type(screen.getByRole('searchbox', { name: /Search customers/ }), 'ada');
    const option = await screen.findByRole('option', { name: /Ada Lovelace/ });
    expect(within(option).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(option).getByText('ada@acme.example · Acme')).toBeInTheDocument();
    expect(option.textContent?.match(/Ada Lovelace/g)).toHaveLength(1);
    expect(option.textContent?.match(/ada@acme\.example/g)).toHaveLength(1);
  });

  it('shows the keyboard hints at a desk, not in the compact bar of a phone', async () => {
    const fetch = fakeFetch({ 'GET /api/console/search?q=ada': { status: 200, body: { items: results, more: false } } });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '*', element: <SearchBox compact /> }]);
    await userEvent.type(screen.getByRole('searchbox', { name: /Search customers/ }), 'ada');
    await screen.findByText('pve-ada-01');
    expect(screen.queryByText('to move')).toBeNull();
    expect(screen.queryByText('to open')).toBeNull();
  });

  it('shows the keyboard hints in the full bar', async () => {
    renderSearch({ 'GET /api/console/search?q=ada': { status: 200, body: { items: results, more: false } } });
    await userEvent.type(screen.getByRole('searchbox', { name: /Search customers/ }), 'ada');
    await screen.findByText('pve-ada-01');
    expect(screen.getByText('to move')).toBeInTheDocument();
  });
});
