import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadInfo, LicenseSummary, PaymentMethod, Subscription, SupportInfo } from '@portal/contract';
import { aSubscription } from '../../../test/fixtures';
import { ada, renderRoutes, userState } from '../../../test/render';
import { DashboardView, type DashboardViewProps, type Loadable } from './dashboard-view';
import { fakeFetch } from '@portal/ui/test';

const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString();
const ok = <T,>(data: T): Loadable<T> => ({ data, isLoading: false, error: undefined });
const loading = <T,>(): Loadable<T> => ({ data: undefined, isLoading: true, error: undefined });
const failed = <T,>(message: string): Loadable<T> => ({
  data: undefined,
  isLoading: false,
  error: { status: 500, data: { message, code: 'INTERNAL' } },
});

const community: SupportInfo = {
  plan: 'none',
  planName: 'Community support',
  summary: 'No plan.',
  licensedNodes: 0,
  premiumMinNodes: 10,
  channels: [{ kind: 'email', label: 'E-mail (best effort)', value: 'support@example.com' }],
  hours: 'Best effort',
  responseTargets: [{ severity: 'Any request', description: 'Any', target: 'Best effort, no guaranteed response time' }],
  links: [],
};
const standard: SupportInfo = {
  ...community,
  plan: 'standard',
  planName: 'Standard support',
  licensedNodes: 3,
  responseTargets: [{ severity: 'Severity 1 (critical)', description: 'Down', target: '4 business hours' }],
};
const iso: DownloadInfo = {
  url: 'http://localhost/api/products/pce/files/pce-1.0.0-demo.iso?expires=1&u=u&sig=s',
  expiresAt: inDays(1),
  filename: 'pce-1.0.0-demo.iso',
  version: '1.0.0',
  size: 2_097_152,
  sha256: 'f'.repeat(64),
  releaseNotesUrl: null,
};
const subscription: Subscription = aSubscription({
  stripeId: 'sub_1',
  currentPeriodStart: inDays(-25),
  currentPeriodEnd: inDays(5),
  plan: 'PCE',
  unitAmount: 3000,
  licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
});
const visa: PaymentMethod = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, isDefault: true };
const empty: LicenseSummary = {
  licenses: 0,
  activeNodes: 0,
  maxNodes: 0,
  atLimit: [],
  expiringSoon: [],
  suspended: [],
  suspensionMessages: {},
};

function renderView(
  props: Partial<DashboardViewProps>,
  summary: { status: number; body: unknown } = { status: 200, body: empty },
) {
  const fetch = fakeFetch({ 'GET /api/products/licenses': summary });
  vi.stubGlobal('fetch', fetch.fn);
  const all: DashboardViewProps = {
    subscriptions: ok([]),
    paymentMethods: ok([]),
    support: ok(community),
    download: ok(iso),
    ...props,
  };
  return renderRoutes([{ path: '/app/dashboard', element: <DashboardView {...all} /> }], {
    path: '/app/dashboard',
    preloaded: userState(ada),
  });
}

describe('DashboardView', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('greets a new customer by name and shows the next steps, without warnings', async () => {
    const { store } = renderView({});
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument();
    expect(store.getState().menu.activePage).toBe('Home');
    const steps = await screen.findByRole('region', { name: 'Get started' });
    expect(within(steps).getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/app/billing');
    expect(within(steps).getByRole('link', { name: 'Download the ISO' })).toHaveAttribute('href', '/app/download-iso');
    // Activating needs a license key: before the first subscription the step is shown but held back.
    expect(within(steps).getByRole('button', { name: 'Activate a node' })).toBeDisabled();
    expect(within(steps).queryByRole('link', { name: 'Activate a node' })).toBeNull();
    expect(within(steps).getByText('Available once your subscription has issued a license key.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Needs your attention' })).toBeNull();
    expect(screen.getByText('No licenses yet')).toBeInTheDocument();
    expect(screen.getByText('No active subscription')).toBeInTheDocument();
    // 'Choose a plan' is offered once, by the steps, not a second time by the Subscription card.
    expect(screen.getAllByRole('link', { name: 'Choose a plan' })).toHaveLength(1);
    expect(screen.getByText('Community support')).toBeInTheDocument();
    expect(screen.getByText('1.0.0')).toBeInTheDocument();
    expect(screen.getByText(/2\.1 MB/)).toBeInTheDocument();
  });

  it('shows a paying customer their figures, the renewal and what needs attention', async () => {
    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]), support: ok(standard) },
      {
        status: 200,
        body: {
          licenses: 1,
          activeNodes: 3,
          maxNodes: 3,
          atLimit: ['AAAAA-BBBBB-CCCCC-DDDDD-EEEEE'],
          expiringSoon: [],
          suspended: [],
          suspensionMessages: {},
        },
      },
    );
    const licenses = await screen.findByRole('region', { name: 'Licenses' });
    expect(await within(licenses).findByText('3 of 3')).toBeInTheDocument();
    expect(within(licenses).getByText('At the limit: no node is free.')).toBeInTheDocument();
    const subs = await screen.findByRole('region', { name: 'Subscription' });
    expect(within(subs).getByText('3 nodes · monthly')).toBeInTheDocument();
    expect(within(subs).getByText('Active')).toBeInTheDocument();
    expect(within(subs).getByText('$90.00')).toBeInTheDocument();
    const attention = await screen.findByRole('region', { name: 'Needs your attention' });
    expect(within(attention).getByText('A license is at its node limit')).toBeInTheDocument();
    expect(within(attention).getByText('Your subscription renews in 5 days')).toBeInTheDocument();
    expect(within(attention).getByRole('link', { name: 'View license' })).toHaveAttribute(
      'href',
      '/app/licenses?highlight=AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
    );
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    expect(screen.getByText('4 business hours')).toBeInTheDocument();
  });

  it("shows 'access until' for a cancelled subscription", async () => {
    renderView({
      subscriptions: ok([{ ...subscription, cancelAtPeriodEnd: true, currentPeriodEnd: inDays(40) }]),
      paymentMethods: ok([visa]),
    });
    const subs = await screen.findByRole('region', { name: 'Subscription' });
    expect(within(subs).getByText(/Access until/)).toBeInTheDocument();
    expect(within(subs).getByText('Cancelled')).toBeInTheDocument();
    await screen.findByText('No licenses yet');
  });

  it('holds the page in one skeleton of its final shape until the subscriptions and license figures answer', async () => {
    renderView({ subscriptions: loading(), support: failed('Support is unavailable'), download: loading() });
    const skeleton = screen.getByLabelText('Loading the dashboard');
    expect(skeleton).toHaveAttribute('aria-busy', 'true');
    // Nothing above or inside the cards is shown yet, so nothing moves when the answers arrive.
    expect(screen.queryByRole('region', { name: 'Support' })).toBeNull();
    expect(screen.queryByText('Support is unavailable')).toBeNull();
  });

  it('shows skeletons on cards still loading and the error display on failure', async () => {
    renderView(
      { support: failed('Support is unavailable'), download: loading() },
      { status: 500, body: { message: 'Licenses are unavailable', code: 'INTERNAL' } },
    );
    expect(await screen.findByText('Licenses are unavailable')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading the dashboard')).toBeNull();
    expect(screen.getByLabelText('Loading the latest ISO')).toBeInTheDocument();
    expect(screen.getByText('Support is unavailable')).toBeInTheDocument();
  });

  it('says one failure once for the page, with one Retry that fetches every failed read again', async () => {
    const refetches = [vi.fn(), vi.fn(), vi.fn()];
    renderView(
      {
        subscriptions: { ...failed<Subscription[]>('Service Unavailable'), refetch: refetches[0] },
        support: { ...failed<SupportInfo>('Service Unavailable'), refetch: refetches[1] },
        download: { ...failed<DownloadInfo>('Service Unavailable'), refetch: refetches[2] },
      },
      { status: 503, body: { message: 'Service Unavailable', code: 'UNAVAILABLE' } },
    );
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Service Unavailable');
    expect(screen.queryByRole('region', { name: 'Support' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    for (const refetch of refetches) expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('offers Retry on a card whose read failed, and fetches again', async () => {
    const refetch = vi.fn();
    renderView({ support: { ...failed<SupportInfo>('Internal Server Error'), refetch } });
    const card = await screen.findByRole('region', { name: 'Support' });
    expect(within(card).getByRole('alert')).toHaveTextContent('Error: Internal Server Error');
    within(card).getByRole('button', { name: 'Retry' }).click();
    expect(refetch).toHaveBeenCalledTimes(1);
    await screen.findByText('No licenses yet');
  });

  it('offers the activation step once subscribed, and leads with the renewal date', async () => {
    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]), support: ok(standard) },
      {
        status: 200,
        body: { licenses: 1, activeNodes: 0, maxNodes: 3, atLimit: [], expiringSoon: [], suspended: [], suspensionMessages: {} },
      },
    );
    const steps = await screen.findByRole('region', { name: 'Get started' });
    expect(within(steps).getByRole('link', { name: 'Activate a node' })).toHaveAttribute('href', '/app/licenses');
    const subs = await screen.findByRole('region', { name: 'Subscription' });
    expect(within(subs).getByText('Renews on')).toBeInTheDocument();
    expect(
      within(subs).getByText(new Date(subscription.currentPeriodEnd).toLocaleDateString('en-US', { dateStyle: 'medium' })),
    ).toBeInTheDocument();
    expect(screen.queryByText('Standard', { exact: true })).toBeNull();
  });

  it('colours node usage by the same rule as the Licenses page: 2 of 3 is normal use, a full license a warning', async () => {
    const view = renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]) },
      {
        status: 200,
        body: { licenses: 1, activeNodes: 2, maxNodes: 3, atLimit: [], expiringSoon: [], suspended: [], suspensionMessages: {} },
      },
    );
    const licenses = await screen.findByRole('region', { name: 'Licenses' });
    expect(await within(licenses).findByText('2 of 3')).toBeInTheDocument();
    const bar = licenses.querySelector('.mantine-Progress-section')!;
    expect(bar.getAttribute('style')).not.toContain('yellow');
    expect(within(licenses).getByText('1 node free')).toBeInTheDocument();
    view.unmount();

    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]) },
      {
        status: 200,
        body: { licenses: 1, activeNodes: 3, maxNodes: 3, atLimit: [], expiringSoon: [], suspended: [], suspensionMessages: {} },
      },
    );
    const full = await screen.findByRole('region', { name: 'Licenses' });
    expect(await within(full).findByText('3 of 3')).toBeInTheDocument();
    expect(full.querySelector('.mantine-Progress-section')!.getAttribute('style')).toContain('yellow');
  });

  it('says a license is suspended and whom to ask, instead of "0 of 0", a full bar and the first steps', async () => {
    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]) },
      {
        status: 200,
        body: {
          licenses: 1,
          activeNodes: 0,
          maxNodes: 0,
          atLimit: [],
          expiringSoon: [],
          suspended: ['SUSPX-AAAAA-BBBBB-CCCCC-DDDDD'],
          suspensionMessages: {},
        },
      },
    );
    const licenses = await screen.findByRole('region', { name: 'Licenses' });
    expect(await within(licenses).findByText('License suspended')).toBeInTheDocument();
    expect(within(licenses).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/app/support');
    expect(within(licenses).queryByText('0 of 0')).toBeNull();
    expect(within(licenses).queryByRole('progressbar')).toBeNull();
    const attention = await screen.findByRole('region', { name: 'Needs your attention' });
    expect(within(attention).getByText('A license is suspended')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
  });

  it('quotes, as plain text, what the vendor told the customer about the suspension, with whom to contact', async () => {
    const message = 'Abuse report from your network <script>alert(1)</script>: reply to abuse@vendor.example';
    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]) },
      {
        status: 200,
        body: {
          ...empty,
          licenses: 1,
          suspended: ['SUSPX-AAAAA-BBBBB-CCCCC-DDDDD'],
          suspensionMessages: { 'SUSPX-AAAAA-BBBBB-CCCCC-DDDDD': message },
        },
      },
    );
    const attention = await screen.findByRole('region', { name: 'Needs your attention' });
    const alert = within(attention).getByText('A license is suspended').closest<HTMLElement>('[role="status"]')!;
    expect(within(alert).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/app/support');
    const quote = within(alert).getByRole('figure');
    expect(within(quote).getByText('Message from the vendor')).toBeInTheDocument();
    expect(within(quote).getByText(message)).toBeInTheDocument();
    expect(quote.querySelector('script')).toBeNull();
  });

  it("names the subscription of a suspended license 'License suspended', not Active, as Billing does", async () => {
    renderView(
      { subscriptions: ok([subscription]), paymentMethods: ok([visa]) },
      { status: 200, body: { ...empty, licenses: 1, suspended: [subscription.licenseKey!] } },
    );
    const card = await screen.findByRole('region', { name: 'Subscription' });
    expect(await within(card).findByText('License suspended')).toBeInTheDocument();
    expect(within(card).queryByText('Active')).toBeNull();
    expect(within(card).queryByText('Renews on')).toBeNull();
    expect(within(card).getByText('Next invoice on')).toBeInTheDocument();
  });

  it('says when no release is available yet', async () => {
    renderView({
      download: {
        data: undefined,
        isLoading: false,
        error: { status: 404, data: { message: 'No release yet, check back later.', code: 'NOT_FOUND' } },
      },
    });
    expect(await screen.findByText('No release yet')).toBeInTheDocument();
    expect(screen.getByText('No release yet, check back later.')).toBeInTheDocument();
    await screen.findByText('No licenses yet');
  });
});
