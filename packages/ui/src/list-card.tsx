import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import { ErrorDisplay } from './error-display';
import { SkeletonRows } from './skeletons';
import { TableCard, type TableCardProps } from './table-card';

export interface ListCardProps<T> extends Omit<TableCardProps, 'children'> {
  /** The list's items once loaded; undefined while it loads or when it failed. */
  items: readonly T[] | undefined;
  /** The first load: skeleton rows stand where the table will be. */
  loading: boolean;
  /** Announces the skeleton (for example: Loading API tokens). */
  loadingLabel: string;
  /** How many skeleton rows. */
  loadingRows?: number;
  /** The failed load's error, with a retry. */
  error?: unknown;
  onRetry?: () => unknown;
  retrying?: boolean;
  /** Shown instead of the table when the list is empty: an EmptyState. */
  empty: ReactNode;
  /** The rows of the items. */
  children: (items: readonly T[]) => ReactNode;
  /** Under the table (its pagination). */
  footer?: ReactNode;
}

/** A loaded list as a table card: its error, its skeleton while loading, its empty state, or its rows. */
export function ListCard<T>({
  items,
  loading,
  loadingLabel,
  loadingRows = 3,
  error,
  onRetry,
  retrying,
  empty,
  children,
  footer,
  ...table
}: ListCardProps<T>) {
  return (
    <>
      <ErrorDisplay error={error} onRetry={onRetry} retrying={retrying} />
      {loading ? (
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
