import { billingApi } from '../features/billing/api';
import { dashboardApi } from '../features/dashboard/api';
import { downloadsApi } from '../features/downloads/api';
import { LICENSES_PAGE_SIZE, licensesApi, listPageAt } from '../features/licenses/api';
import { supportApi } from '../features/support/api';
import { pageTitleAt } from '../lib/pages';
import type { AppDispatch, ClientState } from '../lib/state/hooks';
import { setActivePage } from '../lib/state/menu-slice';

type Reads = (dispatch: AppDispatch, search: URLSearchParams) => PromiseLike<unknown>[];

/** Asked without a subscription of its own: the page subscribes to the same cache entry as it renders. */
const once = { subscribe: false } as const;

/** Each subscription's invoices, once the subscriptions are known (the billing page waits for them). */
function subscriptionsAndInvoices(dispatch: AppDispatch): PromiseLike<unknown> {
  return dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, once)).then(({ data }) =>
    Promise.all((data?.items ?? []).map((s) => dispatch(billingApi.endpoints.listInvoices.initiate(s.stripeId, once)))),
  );
}

/**
 * The reads each signed-in page makes as it first renders (its own and the shell's: the banner of a
 * failing payment reads the subscriptions), with the arguments that page gives them. Keep in step
 * with the pages: a read missing here is only made later, by the page, as before. The server sends
 * the answers of the same reads inside the page (the contract's `pageFirstReads`, docs/decisions/139):
 * the test checks the three lists agree.
 */
const PAGE_READS: Readonly<Record<string, Reads>> = {
  '/app/dashboard': (dispatch) => [
    dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, once)),
    dispatch(billingApi.endpoints.listPaymentMethods.initiate(undefined, once)),
    dispatch(dashboardApi.endpoints.getLicenseSummary.initiate(undefined, once)),
    dispatch(supportApi.endpoints.getSupportInfo.initiate(undefined, once)),
    dispatch(downloadsApi.endpoints.getDownload.initiate(undefined, once)),
  ],
  '/app/billing': (dispatch) => [
    subscriptionsAndInvoices(dispatch),
    dispatch(billingApi.endpoints.listPaymentMethods.initiate(undefined, once)),
    dispatch(billingApi.endpoints.listPrices.initiate(undefined, once)),
    dispatch(billingApi.endpoints.getBillingDetails.initiate(undefined, once)),
    dispatch(dashboardApi.endpoints.getLicenseSummary.initiate(undefined, once)),
  ],
  '/app/licenses': (dispatch, search) => [
    dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, once)),
    dispatch(licensesApi.endpoints.listLicenses.initiate({ page: listPageAt(search), size: LICENSES_PAGE_SIZE }, once)),
  ],
  '/app/support': (dispatch) => [
    dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, once)),
    dispatch(supportApi.endpoints.getSupportInfo.initiate(undefined, once)),
  ],
  '/app/download-iso': (dispatch) => [
    dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, once)),
    dispatch(downloadsApi.endpoints.getDownload.initiate(undefined, once)),
  ],
};

/**
 * Starts the reads of the signed-in page at `location` when someone onboarded is signed in
 * (docs/decisions/133), and answers a promise that settles once each has answered (an error is an
 * answer; a subscription's invoices count). Called once the session check has answered: the
 * answers travel while the page's code loads, or came inside the page (docs/decisions/139), so the
 * page's first render has them instead of a skeleton that one more render and layout replace. The
 * pages read the same cache entries (same endpoints, same arguments); a visitor without a session
 * asks for nothing.
 */
export function startPageReads(
  store: { dispatch: AppDispatch; getState: () => ClientState },
  location: Pick<Location, 'pathname' | 'search'>,
): Promise<unknown> {
  const { authenticated, profile } = store.getState().user;
  if (!authenticated || !profile?.onboarded) return Promise.resolve();
  const pathname = location.pathname.replace(/\/+$/, '');
  return Promise.all(PAGE_READS[pathname]?.(store.dispatch, new URLSearchParams(location.search)) ?? []);
}

/**
 * Marks the signed-in page at `location` in `menu.activePage` before the first render: the side
 * menu and the document title show it at once, and the page, which sets the same title as it
 * renders, changes nothing (a first change from '' redrew the whole shell: docs/decisions/134).
 */
export function markOpenedPage(dispatch: AppDispatch, location: Pick<Location, 'pathname'>): void {
  dispatch(setActivePage(pageTitleAt(location.pathname)));
}

/** The longest the first render waits for the page's first reads: a slow answer shows the skeleton. */
export const FIRST_READS_WAIT_MS = 1000;

/**
 * Settles when `reads` does, or after FIRST_READS_WAIT_MS at most. main.tsx renders the routes
 * then (docs/decisions/136): React renders them in slices only while the store stays still, and an
 * answer arriving during that render made React discard it and render the whole page again in one
 * blocking task, the rule against tearing of `useSyncExternalStore` (110-230 ms on a desktop).
 */
export function answeredOrLater(reads: Promise<unknown>, waitMs = FIRST_READS_WAIT_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    reads.then(done, done);
  });
}
