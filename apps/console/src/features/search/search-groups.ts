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

/** Results grouped by kind, in one fixed order of kinds, each keeping the server's order. */
export function groupResults(items: readonly SearchResult[]): SearchGroup[] {
  return SEARCH_RESULT_KINDS.map((kind) => ({
    kind,
    label: KIND_LABEL[kind],
    items: items.map((item, index) => ({ ...item, key: `${index}` })).filter((item) => item.kind === kind),
  })).filter((group) => group.items.length > 0);
}

/** Where choosing a result goes: the customer's page, at the section holding the match. */
export function resultPath(result: SearchResult): string {
  return `/customers/${encodeURIComponent(result.userId)}${SECTION[result.kind]}`;
}
