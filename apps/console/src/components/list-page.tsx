import type { ReactNode } from 'react';
import { consolePath, type ConsoleRouteId } from '@portal/contract';
import { useListParams } from '../lib/list-params';
import { DataTable, type Column, type ListResult } from './data-table';
import { FilterSelect, ListToolbar } from './list-toolbar';
import { PageFrame } from './page-frame';

export interface ListFilter {
  /** The query parameter it sets. */
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** The select's width (px) when its choices read longer than the usual 160. */
  width?: number;
}

export interface ListPageProps<Row> {
  title: string;
  description: string;
  /** The list's route: its rows, and their CSV download. */
  route: ConsoleRouteId;
  /** The list endpoint's RTK Query hook (one per page, always the same). */
  useRows: (query: Record<string, string | number>) => ListResult<Row>;
  /** The text filter's placeholder; no text filter when left out. */
  filterPlaceholder?: string;
  filters?: readonly ListFilter[];
  columns: ReadonlyArray<Column<Row>>;
  rowKey: (row: Row) => string;
  /** [one, many]: 'Showing 1–20 of 240 customers'. */
  noun: [string, string];
  empty: { icon: ReactNode; title: string; description: string };
  minWidth?: number;
}

/** A console list page: title, filters and Export CSV, then the table with its pages; the view lives in the address. */
export function ListPage<Row>({
  title,
  description,
  route,
  useRows,
  filterPlaceholder,
  filters = [],
  ...table
}: ListPageProps<Row>) {
  const list = useListParams();
  const result = useRows(list.query);
  return (
    <PageFrame title={title} description={description}>
      {filterPlaceholder ? (
        <ListToolbar list={list} placeholder={filterPlaceholder} csvPath={consolePath(route)}>
          {filters.map((f) => (
            <FilterSelect key={f.name} list={list} {...f} />
          ))}
        </ListToolbar>
      ) : null}
      <DataTable label={title} result={result} list={list} {...table} />
    </PageFrame>
  );
}
