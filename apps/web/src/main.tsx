import '@portal/ui/zod-jitless';
import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './app/kit-first-screen.css';
import '@mantine/nprogress/styles.css';
import '@portal/ui/global.css';
import '@portal/ui/fonts';
import { Providers } from './app/providers';
import { RouterProgress } from './app/router-progress';
import { AppRoutes, preloadRoutes } from './app/router';
import { makeStore } from './app/store';
import { pageTitleAt } from './lib/pages';
import { setActivePage } from './lib/state/menu-slice';
import { api } from './lib/api';
import { loadSession } from './features/auth/session';

const store = makeStore();
// Both calls start before the first render: the layouts show nothing until the session is known.
const session = store.dispatch(loadSession());
void store.dispatch(api.endpoints.getConfig.initiate());
// A signed-in page's reads start once the session is known, while its code loads (docs/decisions/133).
if (window.location.pathname.startsWith('/app/')) {
  void Promise.all([session, import('./app/layouts/app-layout')]).then(([, { startPageReads }]) =>
    startPageReads(store, window.location),
  );
}

// The page being opened, known from the address: the side menu marks it and the document title
// names it in the first render, instead of in a second one of the whole shell when the page says
// so (docs/decisions/134).
store.dispatch(setActivePage(pageTitleAt(window.location.pathname)));

const root = createRoot(document.getElementById('root')!);
const render = (routes: ReactNode) =>
  root.render(
    <StrictMode>
      <Providers store={store}>
        <RouterProgress />
        {routes}
      </Providers>
    </StrictMode>,
  );
// The progress bar alone until the code of the first screen is here, then that screen at once.
render(null);
// As a transition: React renders it in slices of a few milliseconds instead of one long task that
// holds the main thread (on a phone the signed-in shell and its page take a few hundred ms).
void preloadRoutes(window.location).then(() =>
  startTransition(() =>
    render(
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>,
    ),
  ),
);
