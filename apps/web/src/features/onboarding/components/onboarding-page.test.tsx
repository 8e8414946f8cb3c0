import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ada, LocationProbe, renderRoutes, userState, portalConfig } from '../../../test/render';
import { OnboardingPage } from './onboarding-page';
import { fakeFetch } from '@portal/ui/test';

const newcomer = { ...ada, fname: '', lname: '', company: null, onboarded: false };

function renderOnboarding(answers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({
    'GET /api/config': { status: 200, body: portalConfig },
    ...answers,
  });
  vi.stubGlobal('fetch', fetch.fn);
  return {
    ...renderRoutes(
      [
        { path: '/onboarding', element: <OnboardingPage /> },
        { path: '*', element: <LocationProbe /> },
      ],
      { path: '/onboarding', preloaded: userState(newcomer) },
    ),
    fetch,
  };
}

describe('OnboardingPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('welcomes the user and asks for both names with the contract messages', async () => {
    const { fetch } = renderOnboarding();
    expect(screen.getByRole('heading', { name: 'Welcome — tell us who you are' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue to the portal' }));
    expect(await screen.findByText('Enter your first name')).toBeInTheDocument();
    expect(screen.getByText('Enter your last name')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the names (company optional), updates the profile and goes to the dashboard', async () => {
    const done = { ...newcomer, fname: 'Ada', lname: 'Lovelace', onboarded: true };
    const { fetch, store } = renderOnboarding({ 'POST /api/users/onboarding': { status: 200, body: { user: done } } });
    await userEvent.type(screen.getByLabelText(/First name/), 'Ada');
    await userEvent.type(screen.getByLabelText(/Last name/), 'Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to the portal' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/dashboard$/));
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({ fname: 'Ada', lname: 'Lovelace' });
    expect(store.getState().user.profile).toEqual(done);
  });

  it("shows the server's error", async () => {
    renderOnboarding({
      'POST /api/users/onboarding': { status: 500, body: { message: 'Something went wrong on our side', code: 'INTERNAL' } },
    });
    await userEvent.type(screen.getByLabelText(/First name/), 'Ada');
    await userEvent.type(screen.getByLabelText(/Last name/), 'Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to the portal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong on our side');
  });
});
