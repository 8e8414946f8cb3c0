import type { ReactNode } from 'react';
import { Paper, Skeleton, Stack, Table, UnstyledButton, Group, type TableThProps } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { ListParams } from '../lib/list-params';
import classes from './data-table.module.css';
import { EmptyState, ErrorDisplay, ListFooter } from '@portal/ui';

export interface Column<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The list's sort key for this column, when the server sorts by it. */
  sort?: string;
  align?: TableThProps['ta'];
  /** Width of the skeleton bar in this column while the list loads. */
  skeleton?: number | string;
  /**
   * The column's width (px) on a laptop; columns without one share what the others leave. Give
   * one to every short column (status, amount, date) so a long e-mail cannot push it off-screen.
   */
  width?: number;
  /**
   * The cell's whole value as text, for a column whose values can be long (an e-mail, a company):
   * the cell is cut with an ellipsis and this shows on hover.
   */
  text?: (row: Row) => string | null;
}

/** What a list's RTK Query hook answers, as far as the table reads it. */
export interface ListResult<Row> {
  data?: { items: Row[]; page: number; size: number; total: number };
  isLoading: boolean;
  /** A new page or filter is on its way: the rows shown dim until it arrives. */
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

export interface DataTableProps<Row> {
  /** Names the table for screen readers ('Customers'). */
  label: string;
  columns: ReadonlyArray<Column<Row>>;
  rowKey: (row: Row) => string;
  result: ListResult<Row>;
  list: ListParams;
  /** [one, many]: 'Showing 1–20 of 240 customers'. */
  noun: [string, string];
  empty: { icon: ReactNode; title: string; description: string };
  minWidth?: number;
}

const SKELETON_ROWS = 8;

/** Every console list: sortable headers, skeleton rows, the error with Retry, an empty state, pages. */
export function DataTable<Row>({ label, columns, rowKey, result, list, noun, empty, minWidth = 760 }: DataTableProps<Row>) {
  const { data, isLoading, isFetching, error } = result;
  const onRetry = () => void result.refetch();
  if (error && !data) return <ErrorDisplay error={error} onRetry={onRetry} retrying={isFetching} />;
  if (data && data.total === 0) return <EmptyState icon={empty.icon} title={empty.title} description={empty.description} />;
  return (
    <Stack gap="sm">
      <Paper withBorder style={{ overflow: 'hidden' }} className={classes.frame}>
        <Table.ScrollContainer minWidth={minWidth} type="native">
          <Table
            verticalSpacing="sm"
            highlightOnHover
            aria-label={label}
            aria-busy={isLoading || isFetching}
            className={`${classes.table} ${classes.fixed} ${classes.cards}`}
            data-stale={isFetching && !isLoading ? '' : undefined}
          >
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <SortableTh key={c.key} column={c} list={list} />
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {isLoading || !data
                ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                    <Table.Tr key={i} aria-hidden>
                      {columns.map((c) => (
                        <Table.Td key={c.key} data-label={c.header}>
                          <Skeleton height={14} width={c.skeleton ?? '70%'} ml={c.align === 'right' ? 'auto' : undefined} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data.items.map((row) => (
                    <Table.Tr key={rowKey(row)}>
                      {columns.map((c) => (
                        <Table.Td key={c.key} ta={c.align} data-label={c.header}>
                          <Cell column={c} row={row} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {error ? <ErrorDisplay error={error} onRetry={onRetry} retrying={isFetching} /> : null}
      {data ? (
        <ListFooter
          page={data.page}
          size={data.size}
          total={data.total}
          noun={noun}
          onChange={list.setPage}
          label={`Pages of ${label.toLowerCase()}`}
        />
      ) : null}
    </Stack>
  );
}

/** A cell's value; a long one cut with an ellipsis, whole in its title. */
function Cell<Row>({ column, row }: { column: Column<Row>; row: Row }) {
  if (!column.text) return column.cell(row);
  return (
    <span className={classes.truncate} title={column.text(row) ?? undefined}>
      {column.cell(row)}
    </span>
  );
}

function SortableTh<Row>({ column, list }: { column: Column<Row>; list: ListParams }) {
  if (!column.sort)
    return (
      <Table.Th ta={column.align} w={column.width}>
        {column.header}
      </Table.Th>
    );
  const active = list.sort === column.sort;
  const Icon = !active ? IconSelector : list.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      ta={column.align}
      w={column.width}
      aria-sort={active ? (list.order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <UnstyledButton onClick={() => list.toggleSort(column.sort!)} className={classes.sort}>
        <Group gap={4} wrap="nowrap" justify={column.align === 'right' ? 'flex-end' : 'flex-start'}>
          {column.header}
          <Icon size={14} stroke={1.8} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
