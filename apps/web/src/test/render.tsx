import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import type { SessionUser } from '@portal/contract';
import { makeStore, type AppStore } from '../app/store';
import { theme } from '../app/theme';
import type { ClientState } from '../lib/state/hooks';

export const ada: SessionUser = {
  email: 'ada@acme.example',
  fname: 'Ada',
  lname: 'Lovelace',
  onboarded: true,
  picture: null,
  company: 'Acme',
};

/** GET /api/config as a default install answers it (local billing, no Google sign-in). */
export const portalConfig = {
  brandName: 'Acme Cloud',
  docsUrl: 'https://docs.acme.example',
  googleEnabled: false,
  billingProvider: 'local',
  stripePublishableKey: null,
};

/** Preloaded `user` slice for a signed-in (or signed-out) visitor. */
export function userState(profile: SessionUser | null): Pick<ClientState, 'user'> {
  return { user: { authenticated: profile !== null, checkingAuth: false, profile } };
}

export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {/* Reduced motion (test/setup.ts): the kit's transitions take 0 ms and leave no timer to fire after jsdom is gone. */}
      <MantineProvider theme={{ ...theme, respectReducedMotion: true }}>{children}</MantineProvider>
    </Provider>
  );
}

/** Shows where the router ended up, for redirect assertions. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderRoutes(
  routes: RouteObject[],
  { path = '/', preloaded }: { path?: string; preloaded?: Partial<ClientState> } = {},
) {
  const store = makeStore(preloaded);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <Providers store={store}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, store, router };
}

export function renderWithStore(ui: ReactElement, preloaded?: Partial<ClientState>) {
  const store = makeStore(preloaded);
  return { ...render(<Providers store={store}>{ui}</Providers>), store };
}
