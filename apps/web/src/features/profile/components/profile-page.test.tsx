import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEXT, type AuditEvent, type Page } from '@portal/contract';
import { ada, LocationProbe, renderRoutes, userState } from '../../../test/render';
import { ProfilePage } from './profile-page';
import { fakeFetch } from '@portal/ui/test';

const noActivity: Page<AuditEvent> = { items: [], page: 1, size: 10, total: 0 };

function events(page: number, total: number): Page<AuditEvent> {
  const count = Math.min(10, total - (page - 1) * 10);
  return {
    items: Array.from({ length: count }, (_, i) => ({
      id: `e${page}-${i}`,
      action: i === 0 ? 'signed_in' : 'profile_updated',
      summary: i === 0 ? `Signed in with an e-mailed link (page ${page})` : `Updated the profile (first name) ${page}-${i}`,
      createdAt: new Date(Date.now() - (i + 1) * 3 * 60_000).toISOString(),
    })),
    page,
    size: 10,
    total,
  };
}

type Answers = Parameters<typeof fakeFetch>[0];

function renderProfile(answers: Answers = {}, opts: { user?: typeof ada; exportResponse?: () => Response } = {}) {
  const fake = fakeFetch({
    'GET /api/users/activity?page=1&size=10': { status: 200, body: noActivity },
    'GET /api/users/tokens': { status: 200, body: { items: [] } },
    ...answers,
  });
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (opts.exportResponse && url.includes('/api/users/export')) {
      await fake.fn(input, init);
      return opts.exportResponse();
    }
    return fake.fn(input, init);
  };
  vi.stubGlobal('fetch', fn);
  const view = renderRoutes(
    [
      {
        path: '/app/profile',
        element: (
          <>
            <ProfilePage />
            <Notifications />
          </>
        ),
      },
      {
        path: '/login',
        element: (
          <>
            <LocationProbe />
            <Notifications />
          </>
        ),
      },
    ],
    { path: '/app/profile', preloaded: userState(opts.user ?? ada) },
  );
  return { ...view, fetch: fake };
}

describe('ProfilePage: details', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.clean();
  });

  it('shows the picture (initials without one), the read-only e-mail and the editable name and company', () => {
    renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByText('AL')).toBeInTheDocument();
    expect(screen.getByLabelText(/^E-mail/)).toHaveValue('ada@acme.example');
    expect(screen.getByLabelText(/^E-mail/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/First name/)).toHaveValue('Ada');
    expect(screen.getByLabelText(/Last name/)).toHaveValue('Lovelace');
    expect(screen.getByLabelText(/Company/)).toHaveValue('Acme');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it("shows Google's picture when there is one", () => {
    renderProfile({}, { user: { ...ada, picture: 'https://lh3.googleusercontent.com/a/ada' } });
    expect(screen.getByText(/Your picture comes from your Google account/)).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: 'Ada Lovelace' })[0]).toHaveAttribute(
      'src',
      'https://lh3.googleusercontent.com/a/ada',
    );
  });

  it("checks the fields with the contract's messages before sending", async () => {
    const { fetch } = renderProfile();
    await userEvent.clear(screen.getByLabelText(/First name/));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter your first name')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Company/), 'x'.repeat(100));
    expect(await screen.findByText('The company name can be at most 100 characters')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('saves the name and company, updates the signed-in user and says so', async () => {
    const saved = { ...ada, fname: 'Augusta', company: null };
    const { fetch, store } = renderProfile({ 'PATCH /api/users/profile': { status: 200, body: { user: saved } } });
    await userEvent.clear(screen.getByLabelText(/First name/));
    await userEvent.type(screen.getByLabelText(/First name/), ' Augusta ');
    await userEvent.clear(screen.getByLabelText(/Company/));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    const patch = fetch.calls.find((c) => c.method === 'PATCH')!;
    expect(JSON.parse(patch.body!)).toEqual({ fname: 'Augusta', lname: 'Lovelace', company: '' });
    expect(store.getState().user.profile).toEqual(saved);
    expect(screen.getByRole('heading', { name: 'Augusta Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it("puts the server's field messages under the fields", async () => {
    renderProfile({
      'PATCH /api/users/profile': {
        status: 400,
        body: {
          message: 'Check the highlighted fields',
          code: 'VALIDATION_FAILED',
          issues: [{ path: ['lname'], message: 'Enter your last name' }],
        },
      },
    });
    await userEvent.type(screen.getByLabelText(/Last name/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter your last name')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Check the highlighted fields');
  });
});

describe('ProfilePage: activity', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists when (relative, the exact time on hover) and what, a page at a time', async () => {
    const { fetch } = renderProfile({
      'GET /api/users/activity?page=1&size=10': { status: 200, body: events(1, 23) },
      'GET /api/users/activity?page=2&size=10': { status: 200, body: events(2, 23) },
    });
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(within(table).getByText('Signed in with an e-mailed link (page 1)')).toBeInTheDocument();
    expect(within(table).getAllByText('3 minutes ago')[0]!.tagName).toBe('TIME');
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();
    await userEvent.hover(within(table).getAllByText('3 minutes ago')[0]!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/\d{4}/);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Signed in with an e-mailed link (page 2)')).toBeInTheDocument();
    expect(screen.getByText('11–20 of 23')).toBeInTheDocument();
    expect(fetch.calls.map((c) => c.path)).toContain('/api/users/activity?page=2&size=10');
  });

  it('says what will appear when there is no activity', async () => {
    renderProfile();
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
  });

  it("shows the server's error", async () => {
    renderProfile({
      'GET /api/users/activity?page=1&size=10': {
        status: 500,
        body: { message: 'Something went wrong on our side', code: 'INTERNAL' },
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong on our side');
  });
});

describe('ProfilePage: data export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('downloads GET /api/users/export as the file the server names', async () => {
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:export'), revokeObjectURL: () => {} }),
    );
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const body = { format: 'customer-portal-account-export', profile: { email: 'ada@acme.example' } };
    const { fetch } = renderProfile(
      {},
      {
        exportResponse: () =>
          new Response(JSON.stringify(body), {
            status: 200,
            headers: {
              'content-type': 'application/json',
              'content-disposition': 'attachment; filename="acme-account-export-2026-01-02.json"',
            },
          }),
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(fetch.calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/users/export');
    expect(clicked[0]!.download).toBe('acme-account-export-2026-01-02.json');
    expect(JSON.parse(await created[0]!.text())).toEqual(body);
    click.mockRestore();
  });

  it("shows the server's error", async () => {
    renderProfile({
      'GET /api/users/export': { status: 500, body: { message: 'Something went wrong on our side', code: 'INTERNAL' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong on our side');
  });
});

describe('ProfilePage: account deletion', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.clean();
  });

  const DELETE = 'DELETE /api/users/?i_want_to_delete_my_account=true';

  /** The quiet card's button opens the dialog; 'I confirm' typed into it. */
  async function openDialog(typed = 'I confirm') {
    const card = await screen.findByRole('region', { name: 'Delete account' });
    await userEvent.click(within(card).getByRole('button', { name: 'Delete account…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    if (typed) await userEvent.type(within(dialog).getByLabelText(/Confirmation/), typed);
    return dialog;
  }

  it('shows one skeleton for the activity and the cards under it, then all of them at once', async () => {
    renderProfile();
    expect(screen.getByLabelText('Loading activity')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Delete account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download my data' })).not.toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Delete account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading activity')).not.toBeInTheDocument();
  });

  it('keeps deletion behind a button: no open warning, no field on the page', async () => {
    renderProfile();
    const card = await screen.findByRole('region', { name: 'Delete account' });
    expect(within(card).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(card).queryByText(/Invoices are kept/)).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete account…' })).toBeEnabled();
  });

  it('explains what happens in the dialog and asks for "I confirm" (any case, nothing trimmed) before deleting', async () => {
    const { fetch } = renderProfile();
    const dialog = await openDialog('');
    for (const text of [
      /subscriptions end now, without further charges/,
      /licenses stop validating/,
      /cards are removed/,
      /personal data is erased/,
      /Invoices are kept in anonymised form, as accounting law requires/,
    ]) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
    const field = within(dialog).getByLabelText(/Confirmation/);
    const button = within(dialog).getByRole('button', { name: 'Delete my account' });
    for (const wrong of ['', 'I confirm it', ' I confirm', 'I confirm ', ada.email]) {
      await userEvent.clear(field);
      if (wrong) await userEvent.type(field, wrong);
      await userEvent.click(button);
      expect(await within(dialog).findByText(TEXT.confirmRequired)).toBeInTheDocument();
    }
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.clear(field);
    await userEvent.type(field, 'i CONFIRM');
    expect(within(dialog).queryByText(TEXT.confirmRequired)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('deletes the account, signs out and goes to /login saying so', async () => {
    const { fetch, store } = renderProfile({ [DELETE]: { status: 204 } });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(fetch.calls.map((c) => `${c.method} ${c.path}`)).toContain(DELETE);
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: false, profile: null });
    expect(await screen.findByText('Your account was deleted')).toBeInTheDocument();
  });

  it('asks for a fresh sign-in when the sign-in is too old, without signing out by itself', async () => {
    const { fetch, store } = renderProfile({
      [DELETE]: {
        status: 401,
        body: { message: 'For your security, sign in again to confirm the deletion', code: 'RECENT_SIGN_IN_REQUIRED' },
      },
      'GET /api/auth/logout': { status: 204 },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('For your security, sign in again to confirm');
    expect(store.getState().user.authenticated).toBe(true);
    await userEvent.click(within(alert).getByRole('button', { name: 'Sign out and sign in again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?to=%2Fapp%2Fprofile'));
    expect(fetch.calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/auth/logout');
    expect(store.getState().user.authenticated).toBe(false);
  });

  it('signs out on any other 401 (the session ended elsewhere)', async () => {
    const { store } = renderProfile({
      [DELETE]: { status: 401, body: { message: 'Please sign in to continue', code: 'UNAUTHENTICATED' } },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(store.getState().user.authenticated).toBe(false));
  });

  it("shows the server's error and keeps the account", async () => {
    const { store } = renderProfile({
      [DELETE]: { status: 500, body: { message: 'Something went wrong on our side', code: 'INTERNAL' } },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Something went wrong on our side')).toBeInTheDocument();
    expect(store.getState().user.authenticated).toBe(true);
  });
});
