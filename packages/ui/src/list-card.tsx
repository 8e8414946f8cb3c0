import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import { ErrorDisplay } from './error-display';
import { SkeletonRows } from './skeletons';
import { TableCard, type TableCardProps } from './table-card';

/** What ListCard reads of a list query: the shape of an RTK Query hook's result for a page of items. */
export interface ListQuery<T> {
  data?: { items: readonly T[] };
  error?: unknown;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ListCardProps<T> extends Omit<TableCardProps, 'children'> {
  /** The list's query (an RTK Query hook's result): its items once loaded, the first load, a failed load and its retry. */
  query: ListQuery<T>;
  /** Announces the skeleton that stands where the table will be during the first load (for example: Loading API tokens). */
  loadingLabel: string;
  /** How many skeleton rows. */
  loadingRows?: number;
  /** Shown instead of the table when the list is empty: an EmptyState. */
  empty: ReactNode;
  /** The rows of the items. */
  children: (items: readonly T[]) => ReactNode;
  /** Under the table (its pagination). */
  footer?: ReactNode;
}

/** A loaded list as a table card: its error, its skeleton while loading, its empty state, or its rows. */
export function ListCard<T>({ query, loadingLabel, loadingRows = 3, empty, children, footer, ...table }: ListCardProps<T>) {
  const items = query.data?.items;
  return (
    <>
      <ErrorDisplay error={query.error} onRetry={query.refetch} retrying={query.isFetching} />
      {query.isLoading ? (
        <Paper withBorder p="xl" aria-busy="true" aria-label={loadingLabel}>
          <SkeletonRows count={loadingRows} height={16} />
        </Paper>
      ) : items && items.length === 0 ? (
        empty
      ) : items ? (
        <>
          <TableCard {...table}>{children(items)}</TableCard>
          {footer}
        </>
      ) : null}
    </>
  );
}
