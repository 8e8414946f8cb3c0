import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocationProbe, renderRoutes, userState, portalConfig } from '../../../test/render';
import { LoginPage } from './login-page';
import { fakeFetch } from '@portal/ui/test';

const config = portalConfig;
const LINK = 'a'.repeat(43);

function renderLogin(path: string, answers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({ 'GET /api/config': { status: 200, body: config }, ...answers });
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    { path, preloaded: userState(null) },
  );
  return { ...view, fetch };
}

describe('Login: e-mail form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for an address when the field is empty', async () => {
    const { fetch } = renderLogin('/login');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect(await screen.findByText('Enter your e-mail address')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.calls.filter((c) => c.path.startsWith('/api/auth'))).toHaveLength(0);
  });

  it('rejects a malformed address with the contract message', async () => {
    renderLogin('/login');
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect(await screen.findByText('Enter a valid e-mail address, such as name@example.com')).toBeInTheDocument();
  });

  it('requests a link with the address and the safe `to`, then says to check the inbox', async () => {
    const { fetch } = renderLogin('/login?to=%2Fapp%2Fbilling', { 'POST /api/auth/link': { status: 202, body: { sent: true } } });
    await userEvent.type(screen.getByLabelText('E-mail address'), '  Ada@Acme.example ');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('ada@acme.example')).toBeInTheDocument();
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('/api/auth/link');
    expect(JSON.parse(post!.body!)).toEqual({ email: 'ada@acme.example', to: '/app/billing' });
  });

  it('leaves out an unsafe `to`', async () => {
    const { fetch } = renderLogin('/login?to=%2F%2Fevil.example', {
      'POST /api/auth/link': { status: 202, body: { sent: true } },
    });
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({ email: 'ada@acme.example' });
  });

  it('shows the rate limit message through the error display', async () => {
    renderLogin('/login', {
      'POST /api/auth/link': {
        status: 429,
        body: { message: 'Too many sign-in links requested, try again in a minute', code: 'RATE_LIMITED' },
      },
    });
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Too many sign-in links requested, try again in a minute');
  });

  it("offers 'Continue with Google' only when the server has it configured", async () => {
    const { unmount } = renderLogin('/login?to=%2Fapp%2Flicenses');
    await screen.findByRole('heading', { name: 'Sign in to Acme Cloud' });
    expect(screen.queryByRole('link', { name: 'Continue with Google' })).not.toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 200, body: { ...config, googleEnabled: true } } }).fn);
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login?to=%2Fapp%2Flicenses',
      preloaded: userState(null),
    });
    const google = await screen.findByRole('link', { name: 'Continue with Google' });
    await waitFor(() => expect(google).toHaveAttribute('href', '/api/auth/google/?to=%2Fapp%2Flicenses'));
  });

  it('links to sign-up, keeping `to`', async () => {
    renderLogin('/login?to=%2Fapp%2Flicenses');
    const link = screen.getByRole('link', { name: 'Create an account' });
    await waitFor(() => expect(link).toHaveAttribute('href', '/signup?to=%2Fapp%2Flicenses'));
  });
});

describe('Login: e-mailed link landing', () => {
  afterEach(() => vi.unstubAllGlobals());

  const user = { email: 'ada@acme.example', fname: 'Ada', lname: 'Lovelace', onboarded: true, picture: null, company: null };

  it('redeems the link only after the click, then signs in and goes to `to`', async () => {
    const { fetch, store } = renderLogin(`/login?link=${LINK}`, {
      [`GET /api/auth/link/${LINK}`]: { status: 200, body: { user, to: '/app/licenses' } },
    });
    const button = await screen.findByRole('button', { name: 'Continue to the portal' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Acme Cloud' })).toBeInTheDocument();
    // Give any eager request a chance to happen: none may touch the link.
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch.calls.some((c) => c.path.startsWith('/api/auth/link'))).toBe(false);

    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/licenses$/));
    expect(fetch.calls.filter((c) => c.path === `/api/auth/link/${LINK}`)).toHaveLength(1);
    expect(store.getState().user).toEqual({ authenticated: true, checkingAuth: false, profile: user });
  });

  it('says which address the link was sent to before the person continues, without using the link up', async () => {
    const { fetch } = renderLogin(`/login?link=${LINK}`, {
      [`GET /api/auth/recipient/${LINK}`]: { status: 200, body: { email: 'mallory@evil.example' } },
      [`GET /api/auth/link/${LINK}`]: { status: 200, body: { user, to: '/app/licenses' } },
    });
    const button = await screen.findByRole('button', { name: 'Continue to the portal' });
    expect(screen.getByText('mallory@evil.example')).toBeInTheDocument();
    expect(screen.getByText(/This link was sent to/)).toHaveTextContent(
      'This link was sent to mallory@evil.example. Continue only if this is your address.',
    );
    expect(fetch.calls.filter((c) => c.path === `/api/auth/recipient/${LINK}`)).toHaveLength(1);
    expect(fetch.calls.some((c) => c.path === `/api/auth/link/${LINK}`)).toBe(false);
    // Not the person's address: they leave for the e-mail form, and the link is never redeemed.
    await userEvent.click(screen.getByRole('button', { name: 'Not you? Sign in with another address' }));
    expect(await screen.findByLabelText('E-mail address')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.path === `/api/auth/link/${LINK}`)).toBe(false);
    expect(button).not.toBeInTheDocument();
  });

  it('sends a user who is not onboarded to /onboarding', async () => {
    renderLogin(`/login?link=${LINK}`, {
      [`GET /api/auth/link/${LINK}`]: { status: 200, body: { user: { ...user, onboarded: false }, to: '/app/licenses' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to the portal' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/onboarding$/));
  });

  it('explains an expired or used link (410) and offers a new one', async () => {
    renderLogin(`/login?link=${LINK}&to=%2Fapp%2Fsupport`, {
      [`GET /api/auth/link/${LINK}`]: { status: 410, body: { message: 'This sign-in link was already used', code: 'LINK_USED' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to the portal' }));
    expect(await screen.findByRole('heading', { name: 'This sign-in link has expired or was already used' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request a new link' }));
    expect(await screen.findByLabelText('E-mail address')).toBeInTheDocument();
  });

  it('explains an unknown link (404)', async () => {
    renderLogin(`/login?link=${LINK}`, {
      [`GET /api/auth/link/${LINK}`]: { status: 404, body: { message: 'Unknown link', code: 'NOT_FOUND' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to the portal' }));
    expect(await screen.findByRole('heading', { name: 'This sign-in link is not valid' })).toBeInTheDocument();
  });

  it('shows other errors through the error display and lets the person retry', async () => {
    renderLogin(`/login?link=${LINK}`, {
      [`GET /api/auth/link/${LINK}`]: {
        status: 429,
        body: { message: 'Too many attempts, try again shortly', code: 'RATE_LIMITED' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to the portal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Too many attempts, try again shortly');
    expect(screen.getByRole('button', { name: 'Continue to the portal' })).toBeEnabled();
  });
});
