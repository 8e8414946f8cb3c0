import { billingApi } from '../features/billing/api';
import { dashboardApi } from '../features/dashboard/api';
import { downloadsApi } from '../features/downloads/api';
import { LICENSES_PAGE_SIZE, licensesApi, listPageAt } from '../features/licenses/api';
import { supportApi } from '../features/support/api';
import { pageTitleAt } from '../lib/pages';
import type { AppDispatch, ClientState } from '../lib/state/hooks';
import { setActivePage } from '../lib/state/menu-slice';

type Reads = (dispatch: AppDispatch, search: URLSearchParams) => void;

/** Each subscription's invoices, once the subscriptions are known (the billing page waits for them). */
function subscriptionsAndInvoices(dispatch: AppDispatch) {
  const subscriptions = dispatch(billingApi.endpoints.listSubscriptions.initiate(undefined, { subscribe: false }));
  void subscriptions.then(({ data }) => {
    for (const s of data?.items ?? []) dispatch(billingApi.util.prefetch('listInvoices', s.stripeId, {}));
  });
}

/**
 * The reads each signed-in page makes as it first renders (its own and the shell's: the banner of a
 * failing payment reads the subscriptions), with the arguments that page gives them. Keep in step
 * with the pages: a read missing here is only made later, by the page, as before.
 */
const PAGE_READS: Readonly<Record<string, Reads>> = {
  '/app/dashboard': (dispatch) => {
    dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
    dispatch(billingApi.util.prefetch('listPaymentMethods', undefined, {}));
    dispatch(dashboardApi.util.prefetch('getLicenseSummary', undefined, {}));
    dispatch(supportApi.util.prefetch('getSupportInfo', undefined, {}));
    dispatch(downloadsApi.util.prefetch('getDownload', undefined, {}));
  },
  '/app/billing': (dispatch) => {
    subscriptionsAndInvoices(dispatch);
    dispatch(billingApi.util.prefetch('listPaymentMethods', undefined, {}));
    dispatch(billingApi.util.prefetch('listPrices', undefined, {}));
    dispatch(billingApi.util.prefetch('getBillingDetails', undefined, {}));
    dispatch(dashboardApi.util.prefetch('getLicenseSummary', undefined, {}));
  },
  '/app/licenses': (dispatch, search) => {
    dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
    dispatch(licensesApi.util.prefetch('listLicenses', { page: listPageAt(search), size: LICENSES_PAGE_SIZE }, {}));
  },
  '/app/support': (dispatch) => {
    dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
    dispatch(supportApi.util.prefetch('getSupportInfo', undefined, {}));
  },
  '/app/download-iso': (dispatch) => {
    dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
    dispatch(downloadsApi.util.prefetch('getDownload', undefined, {}));
  },
};

/**
 * Starts the reads of the signed-in page at `location` when someone onboarded is signed in
 * (docs/decisions/133). Called once the session check has answered: the answers travel while the
 * page's code loads and the shell renders, so the page's first render has them instead of a
 * skeleton that one more render and layout replace. The pages read the same cache entries (same
 * endpoints, same arguments); a visitor without a session asks for nothing.
 */
export function startPageReads(
  store: { dispatch: AppDispatch; getState: () => ClientState },
  location: Pick<Location, 'pathname' | 'search'>,
): void {
  const { authenticated, profile } = store.getState().user;
  if (!authenticated || !profile?.onboarded) return;
  const pathname = location.pathname.replace(/\/+$/, '');
  PAGE_READS[pathname]?.(store.dispatch, new URLSearchParams(location.search));
}

/**
 * Marks the signed-in page at `location` in `menu.activePage` before the first render: the side
 * menu and the document title show it at once, and the page, which sets the same title as it
 * renders, changes nothing (a first change from '' redrew the whole shell: docs/decisions/134).
 */
export function markOpenedPage(dispatch: AppDispatch, location: Pick<Location, 'pathname'>): void {
  dispatch(setActivePage(pageTitleAt(location.pathname)));
}
