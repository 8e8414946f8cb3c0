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
import { api } from './lib/api';
import { endFirstAnswers } from './lib/first-answers';
import { loadSession } from './features/auth/session';

const store = makeStore();
// Both calls start before the first render: the layouts show nothing until the session is known.
const session = store.dispatch(loadSession());
void store.dispatch(api.endpoints.getConfig.initiate());
// A signed-in page, from the shell's module (whose chunk app.html preloads, and which the routes
// below wait for): the page is marked from its address before the first render, so the side menu
// and the document title need no second render of the shell (docs/decisions/134); its reads
// start once the session is known, while its code loads (docs/decisions/133), and the routes wait
// for their answers (docs/decisions/136). On other pages `firstReads` is settled at once.
let firstReads: Promise<unknown> = Promise.resolve();
if (window.location.pathname.startsWith('/app/')) {
  const shell = import('./app/layouts/app-layout');
  // A failed load of the shell's code is shown by the routes, which wait for it too.
  const ignore = () => undefined;
  shell.then(({ markOpenedPage }) => markOpenedPage(store.dispatch, window.location)).catch(ignore);
  firstReads = Promise.all([session, shell])
    .then(([, { answeredOrLater, startPageReads }]) => answeredOrLater(startPageReads(store, window.location)))
    .catch(ignore);
}

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
// A signed-in page also waits for its first reads (a second at most): it renders once, with its data,
// and no answer arriving during the render makes React start it again in one task (docs/decisions/136).
void Promise.all([preloadRoutes(window.location), firstReads]).then(() => {
  // The answers the server sent inside the page served the first reads, and serve nothing after.
  endFirstAnswers();
  startTransition(() =>
    render(
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>,
    ),
  );
});
