import { Table } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ListCard, type ListCardProps, type ListQuery } from './list-card';
import { renderInKit } from './test/render';

type Item = { id: string; name: string };
const head = (
  <Table.Thead>
    <Table.Tr>
      <Table.Th>Name</Table.Th>
    </Table.Tr>
  </Table.Thead>
);

const query = (q: Partial<ListQuery<Item>>): ListQuery<Item> => ({
  isLoading: false,
  isFetching: false,
  refetch: () => {},
  ...q,
});

function renderList(props: Partial<ListCardProps<Item>>) {
  return renderInKit(
    <ListCard<Item>
      query={query({})}
      loadingLabel="Loading things"
      empty={<p>Nothing yet</p>}
      minWidth={400}
      aria-label="Things"
      head={head}
      {...props}
    >
      {(items) =>
        items.map((i) => (
          <Table.Tr key={i.id}>
            <Table.Td>{i.name}</Table.Td>
          </Table.Tr>
        ))
      }
    </ListCard>,
  );
}

describe('ListCard', () => {
  it('announces its skeleton while the list loads', () => {
    renderList({ query: query({ isLoading: true, isFetching: true }), loadingRows: 4 });
    expect(screen.getByLabelText('Loading things')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows its empty state for an empty list', () => {
    renderList({ query: query({ data: { items: [] } }) });
    expect(screen.getByText('Nothing yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the rows in a named table, and what goes under it', () => {
    renderList({ query: query({ data: { items: [{ id: '1', name: 'Ada' }] } }), footer: <nav aria-label="Pages" /> });
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table).toHaveTextContent('NameAda');
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeInTheDocument();
    expect(screen.queryByText('Nothing yet')).not.toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    const retry = vi.fn();
    renderList({ query: query({ error: { status: 'FETCH_ERROR', error: 'offline' }, refetch: retry }) });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(retry).toHaveBeenCalledOnce();
  });
});
