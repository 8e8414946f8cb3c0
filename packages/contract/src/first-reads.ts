/**
 * What the portal's signed-in pages read first, as paths under /api exactly as the web app asks
 * for them: the server sends their answers inside the page it serves (docs/decisions/139), and the
 * web app's start-up reads (apps/web/src/app/page-reads.ts) must stay in step (its test checks).
 */

/** Every signed-in page starts with these: the session check and the public configuration. */
export const START_UP_READS = ['/auth/session?optional=true', '/config'] as const;

/** The page of the licenses list an address names (`?page=`): 1 unless a positive integer. */
export function licensesPageAt(search: URLSearchParams): number {
  const n = Number(search.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Rows per page of the licenses list (the API accepts any size up to PAGE_SIZE_MAX). */
export const LICENSES_PAGE_SIZE = 10;

/** The path of one subscription under /api (its changes, its invoices). */
export const subscriptionPath = (subscriptionId: string) => `/billing/subscriptions/${encodeURIComponent(subscriptionId)}`;

/** The path of one subscription's invoices. */
export const subscriptionInvoicesPath = (subscriptionId: string) => `${subscriptionPath(subscriptionId)}/invoices`;

export interface PageFirstReads {
  /** Read at once, side by side. */
  paths: string[];
  /** Each subscription the subscriptions list answers has its invoices read too (billing shows them). */
  invoicesOfEachSubscription: boolean;
}

const SUBSCRIPTIONS = '/billing/subscriptions/';

/**
 * The reads the signed-in page at `pathname` makes as it first renders (its own and the shell's:
 * the banner of a failing payment reads the subscriptions), with the arguments the address gives
 * them; undefined for any other path.
 */
export function pageFirstReads(pathname: string, search: URLSearchParams): PageFirstReads | undefined {
  const page = (paths: string[], invoicesOfEachSubscription = false) => ({ paths, invoicesOfEachSubscription });
  switch (pathname.replace(/\/+$/, '')) {
    case '/app/dashboard':
      return page([SUBSCRIPTIONS, '/billing/methods/', '/products/licenses', '/products/support', '/products/pce/download']);
    case '/app/billing':
      return page([SUBSCRIPTIONS, '/billing/methods/', '/billing/prices', '/billing/details', '/products/licenses'], true);
    case '/app/licenses':
      return page([SUBSCRIPTIONS, `/licenses/?page=${licensesPageAt(search)}&size=${LICENSES_PAGE_SIZE}`]);
    case '/app/support':
      return page([SUBSCRIPTIONS, '/products/support']);
    case '/app/download-iso':
      return page([SUBSCRIPTIONS, '/products/pce/download']);
    default:
      return undefined;
  }
}
