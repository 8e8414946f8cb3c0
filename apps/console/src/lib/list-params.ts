import { useSearchParams } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@portal/contract';

/** Page, size, sort, order, the text filter and the list's own filters: all in the address, so a view can be shared. */
export interface ListParams {
  /** The query sent to the list endpoint (empty values left out). */
  query: Record<string, string | number>;
  page: number;
  sort: string | null;
  order: 'asc' | 'desc';
  get: (name: string) => string;
  /** Sets filters (an empty value removes one); back to page 1. */
  set: (values: Record<string, string | null>) => void;
  setPage: (page: number) => void;
  /** A click on a column header: that column descending, or the other way round when it already is. */
  toggleSort: (column: string) => void;
  /** The same rows as CSV, every page. */
  csvHref: (path: string) => string;
}

const RESERVED = new Set(['page', 'size', 'format']);

export function useListParams(): ListParams {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sort = params.get('sort');
  const order = params.get('order') === 'asc' ? 'asc' : 'desc';

  const query: Record<string, string | number> = { page, size: PAGE_SIZE_DEFAULT };
  for (const [key, value] of params) if (!RESERVED.has(key) && value !== '') query[key] = value;

  const update = (change: (next: URLSearchParams) => void) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        change(next);
        return next;
      },
      { replace: true },
    );

  return {
    query,
    page,
    sort,
    order,
    get: (name) => params.get(name) ?? '',
    set: (values) =>
      update((next) => {
        for (const [k, v] of Object.entries(values)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        next.delete('page');
      }),
    setPage: (p) => update((next) => (p <= 1 ? next.delete('page') : next.set('page', String(p)))),
    toggleSort: (column) =>
      update((next) => {
        const flip = sort === column && order === 'desc';
        next.set('sort', column);
        next.set('order', flip ? 'asc' : 'desc');
        next.delete('page');
      }),
    csvHref: (path) => {
      const csv = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (k !== 'page' && k !== 'size') csv.set(k, String(v));
      csv.set('format', 'csv');
      return `${path}?${csv.toString()}`;
    },
  };
}
