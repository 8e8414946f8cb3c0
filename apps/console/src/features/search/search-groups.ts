import { SEARCH_RESULT_KINDS, type SearchResult, type SearchResultKind } from '@portal/contract';

export const KIND_LABEL: Record<SearchResultKind, string> = {
  customer: 'Customers',
  license: 'Licenses',
  node: 'Nodes',
  subscription: 'Subscriptions',
  invoice: 'Invoices',
};

/** The part of the customer page that shows a result of this kind. */
const SECTION: Record<SearchResultKind, string> = {
  customer: '',
  license: '#licenses',
  node: '#nodes',
  subscription: '#subscriptions',
  invoice: '#subscriptions',
};

export interface SearchGroup {
  kind: SearchResultKind;
  label: string;
  items: Array<SearchResult & { key: string }>;
}

/**
 * Results grouped by kind, each keeping the server's order (best match first); the groups in the
 * order of their best result, so an exact e-mail, key or number leads whatever its kind.
 */
export function groupResults(items: readonly SearchResult[]): SearchGroup[] {
  const numbered = items.map((item, index) => ({ ...item, key: `${index}` }));
  const kinds = [...new Set(items.map((item) => item.kind))].sort(
    (a, b) =>
      items.findIndex((i) => i.kind === a) - items.findIndex((i) => i.kind === b) ||
      SEARCH_RESULT_KINDS.indexOf(a) - SEARCH_RESULT_KINDS.indexOf(b),
  );
  return kinds.map((kind) => ({ kind, label: KIND_LABEL[kind], items: numbered.filter((item) => item.kind === kind) }));
}

/** Where choosing a result goes: the customer's page, at the section holding the match. */
export function resultPath(result: SearchResult): string {
  return `/customers/${encodeURIComponent(result.userId)}${SECTION[result.kind]}`;
}

/** A result's two lines: what matched, then whose it is, saying nothing twice. */
export interface ResultLines {
  title: string;
  subtitle: string | null;
}

/**
 * A customer result's label is 'Name <e-mail>, Company' and its owner 'Name <e-mail>': shown as
 * they come, the name and e-mail read twice. A customer reads as their name (their e-mail without
 * one), then the e-mail and the company; any other result as what matched, then its customer.
 */
export function resultLines(result: Pick<SearchResult, 'kind' | 'label' | 'customer'>): ResultLines {
  if (result.kind !== 'customer') return { title: result.label, subtitle: result.customer };
  const named = /^(.*) <([^<>]*)>$/.exec(result.customer);
  const name = named?.[1] ?? null;
  const email = named?.[2] ?? result.customer;
  const company = result.label.startsWith(`${result.customer}, `) ? result.label.slice(result.customer.length + 2) : null;
  const subtitle = [name ? email : null, company].filter(Boolean).join(' · ');
  return { title: name ?? email, subtitle: subtitle || null };
}
