import type { AppDispatch } from '../lib/state/hooks';

/**
 * The first reads of a signed-in page, asked for as soon as the session check has answered,
 * beside the page's code instead of after it (docs/decisions/038): on a phone the page's code
 * arrives well after the session check, and its reads then arrive with it, so the page's first
 * render shows its content instead of skeletons one round trip longer. A loader starts importing
 * its endpoints at once (small chunks), and reads only once `signedIn` says they will be answered:
 * a visitor without a session would get 401s in the console. The pages read the same cache entries
 * (same endpoint, same argument), so nothing is fetched twice.
 */
export type RouteData = (dispatch: AppDispatch, signedIn: Promise<boolean>, search: URLSearchParams) => Promise<void>;

/** /app/dashboard: subscriptions, cards, the support plan and the latest ISO (dashboard-page.tsx). */
export const dashboardData: RouteData = async (dispatch, signedIn) => {
  const [{ billingApi }, { supportApi }, { downloadsApi }] = await Promise.all([
    import('../features/billing/api'),
    import('../features/support/api'),
    import('../features/downloads/api'),
  ]);
  if (!(await signedIn)) return;
  void dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
  void dispatch(billingApi.util.prefetch('listPaymentMethods', undefined, {}));
  void dispatch(supportApi.util.prefetch('getSupportInfo', undefined, {}));
  void dispatch(downloadsApi.util.prefetch('getDownload', undefined, {}));
};

/** /app/billing: subscriptions, cards and prices (billing-page.tsx); invoices need a subscription first. */
export const billingData: RouteData = async (dispatch, signedIn) => {
  const { billingApi } = await import('../features/billing/api');
  if (!(await signedIn)) return;
  void dispatch(billingApi.util.prefetch('listSubscriptions', undefined, {}));
  void dispatch(billingApi.util.prefetch('listPaymentMethods', undefined, {}));
  void dispatch(billingApi.util.prefetch('listPrices', undefined, {}));
};

/** /app/licenses: the page of licenses the address names (licenses-page.tsx). */
export const licensesData: RouteData = async (dispatch, signedIn, search) => {
  const { licensesApi, licensesPageArgs } = await import('../features/licenses/api');
  if (!(await signedIn)) return;
  void dispatch(licensesApi.util.prefetch('listLicenses', licensesPageArgs(search), {}));
};
