import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { signedOut } from './session-slice';
import type { ConsoleState } from './hooks';

/** Cache groups: an action invalidates what it changed, so the pages showing it read it again. */
export const TAGS = [
  'Session',
  'Customer',
  'Subscriptions',
  'Licenses',
  'Invoices',
  'Overview',
  'Staff',
  'Audit',
  'Search',
  'Factors',
  'StaffTokens',
  'Webhooks',
] as const;

/** Every call goes to the console's own listener; paths come from the contract's CONSOLE_ROUTES. */
const rawBaseQuery = fetchBaseQuery({ baseUrl: '', credentials: 'same-origin' });

/** A call that answers 401 while we believe we are signed in means the staff session ended. */
const baseQuery: typeof rawBaseQuery = async (args, store, extra) => {
  const result = await rawBaseQuery(args, store, extra);
  if (result.error?.status === 401 && (store.getState() as ConsoleState).session.staff) store.dispatch(signedOut());
  return result;
};

/** The one RTK Query API of the console; each feature injects its endpoints in its own api.ts. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAGS,
  endpoints: () => ({}),
});
