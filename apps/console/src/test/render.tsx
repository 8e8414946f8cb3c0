import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import type { StaffRole } from '@portal/contract';
import { theme } from '../app/theme';
import { makeStore, type AppStore } from '../app/store';
import type { Staff } from '../lib/session-slice';

export { fakeFetch } from '@portal/ui/test';

/** A signed-in staff member of `role`. */
export function staff(role: StaffRole, email = `${role}@vendor.example`): Staff {
  return { id: `00000000-0000-4000-8000-00000000000${role.length}`, email, role };
}

function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {/*
        The kit's test mode renders no transitions, but its transition hook still times them (a
        frame, then 250 ms): a timer left when a test file ends fires after jsdom is gone. With
        reduced motion (test/setup.ts) every transition takes 0 ms and sets no timer at all.
      */}
      <MantineProvider theme={{ ...theme, respectReducedMotion: true }} env="test">
        {children}
        <Notifications />
      </MantineProvider>
    </Provider>
  );
}

/** Shows where the router ended up, for redirect assertions. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search + location.hash}</div>;
}

/** Renders routes in a memory router, signed in as `as` (or signed out with null). */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/', as = staff('owner') }: { path?: string; as?: Staff | null } = {},
) {
  const store = makeStore({
    session: { checking: false, staff: as, secondFactor: as ? { state: 'ok', required: false, methods: [] } : null },
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const wrapper = ({ children }: { children: ReactNode }) => <Providers store={store}>{children}</Providers>;
  return { ...render(<RouterProvider router={router} />, { wrapper }), store, router };
}
