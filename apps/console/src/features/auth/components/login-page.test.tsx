import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, LocationProbe, renderRoutes } from '../../../test/render';
import LoginPage from './login-page';

const LINK = 'a'.repeat(43);
/** The page asks the server whether it offers Google (GET /api/console/auth/options). */
const OPTIONS_READ = { method: 'GET', path: '/api/console/auth/options', body: null };

function renderLogin(path: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/overview', element: <LocationProbe /> },
    ],
    { path, as: null },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('LoginPage', () => {
  it('asks for an address, sends the link and says to check the inbox', async () => {
    const fetch = fakeFetch({ 'POST /api/console/auth/link': { status: 202, body: { sent: true } } });
    vi.stubGlobal('fetch', fetch.fn);
    renderLogin('/login');

    await userEvent.type(screen.getByLabelText(/work e-mail address/i), 'Grace@Vendor.example');
    await userEvent.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }));

    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByTestId('sent-to')).toHaveTextContent('grace@vendor.example');
    expect(fetch.calls).toEqual([
      OPTIONS_READ,
      { method: 'POST', path: '/api/console/auth/link', body: JSON.stringify({ email: 'grace@vendor.example' }) },
    ]);
  });

  it('says what is wrong with an address before sending anything', async () => {
    const fetch = fakeFetch({});
    vi.stubGlobal('fetch', fetch.fn);
    renderLogin('/login');

    await userEvent.type(screen.getByLabelText(/work e-mail address/i), 'not an address');
    await userEvent.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }));

    expect(await screen.findByText(/valid e-mail/i)).toBeInTheDocument();
    // Only the question which ways of signing in the server offers; nothing sent.
    expect(fetch.calls).toEqual([OPTIONS_READ]);
  });

  it('redeems an e-mailed link only after Continue, then opens the overview', async () => {
    const me = { staff: { id: 'b7d5c3c1-0000-4000-8000-000000000001', email: 'grace@vendor.example', role: 'support' } };
    const fetch = fakeFetch({ [`POST /api/console/auth/link/${LINK}`]: { status: 200, body: me } });
    vi.stubGlobal('fetch', fetch.fn);
    const { store } = renderLogin(`/login?link=${LINK}`);

    const go = await screen.findByRole('button', { name: 'Continue to the console' });
    expect(fetch.calls).toEqual([]);
    await userEvent.click(go);

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/overview'));
    expect(store.getState().session.staff).toEqual(me.staff);
  });

  it('explains a used or expired link and offers a new one', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        [`POST /api/console/auth/link/${LINK}`]: { status: 410, body: { message: 'This link was used', code: 'LINK_USED' } },
      }).fn,
    );
    renderLogin(`/login?link=${LINK}`);

    await userEvent.click(await screen.findByRole('button', { name: 'Continue to the console' }));
    expect(await screen.findByRole('heading', { name: /expired or was already used/i })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request a new link' }));
    expect(await screen.findByLabelText(/work e-mail address/i)).toBeInTheDocument();
  });

  it('offers Sign in with Google when the server has it set up: a link to the console callback flow', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/console/auth/options': { status: 200, body: { google: true } } }).fn);
    renderLogin('/login');

    const google = await screen.findByRole('link', { name: 'Sign in with Google' });
    expect(google).toHaveAttribute('href', '/api/console/auth/google');
    expect(screen.getByLabelText(/work e-mail address/i)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers no Google button when Google is not set up', async () => {
    const fetch = fakeFetch({ 'GET /api/console/auth/options': { status: 200, body: { google: false } } });
    vi.stubGlobal('fetch', fetch.fn);
    renderLogin('/login');

    await waitFor(() => expect(fetch.calls).toEqual([OPTIONS_READ]));
    expect(await screen.findByLabelText(/work e-mail address/i)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in with Google' })).not.toBeInTheDocument();
  });

  it('says so when the Google account is not on the staff, and still offers both ways in', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/console/auth/options': { status: 200, body: { google: true } } }).fn);
    renderLogin('/login?error=google_not_staff');

    expect(await screen.findByRole('alert')).toHaveTextContent("This Google account is not on the vendor's staff.");
    expect(await screen.findByRole('link', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'E-mail me a sign-in link' })).toBeInTheDocument();
  });

  it('ignores an error it does not know', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/console/auth/options': { status: 200, body: { google: false } } }).fn);
    renderLogin('/login?error=%3Cscript%3E');

    expect(await screen.findByLabelText(/work e-mail address/i)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
