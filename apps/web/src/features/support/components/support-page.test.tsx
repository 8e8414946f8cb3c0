import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SupportInfo } from '@portal/contract';
import { ada, renderRoutes, userState } from '../../../test/render';
import { channelHref, SupportPage } from './support-page';
import { fakeFetch } from '@portal/ui/test';

const links = [
  { label: 'Documentation', url: 'https://docs.example.com' },
  { label: 'Knowledge base', url: 'https://kb.example.com' },
  { label: 'Status page', url: 'https://status.example.com' },
];

const community: SupportInfo = {
  plan: 'none',
  planName: 'Community support',
  summary: 'You have no active subscription, so no support plan applies. Every subscription includes standard support.',
  licensedNodes: 0,
  premiumMinNodes: 10,
  channels: [{ kind: 'email', label: 'E-mail (best effort)', value: 'support@example.com' }],
  hours: 'Best effort, during business hours (Monday to Friday, 9:00 to 17:00 CET)',
  responseTargets: [
    {
      severity: 'Any request',
      description: 'Questions and problems of any kind',
      target: 'Best effort, no guaranteed response time',
    },
  ],
  links,
};

const standard: SupportInfo = {
  plan: 'standard',
  planName: 'Standard support',
  summary: 'Standard support comes with your subscription.',
  licensedNodes: 3,
  premiumMinNodes: 10,
  channels: [
    { kind: 'email', label: 'E-mail', value: 'support@example.com' },
    { kind: 'portal', label: 'Support portal', value: 'https://help.example.com' },
  ],
  hours: 'Monday to Friday, 9:00 to 17:00 CET, except public holidays',
  responseTargets: [
    { severity: 'Severity 1 (critical)', description: 'Production is down', target: '4 business hours' },
    { severity: 'Severity 2 (high)', description: 'A major function does not work', target: '1 business day' },
    { severity: 'Severity 3 (normal)', description: 'A problem with a workaround', target: '2 business days' },
    { severity: 'Severity 4 (low)', description: 'Questions', target: '5 business days' },
  ],
  links,
};

const premium: SupportInfo = {
  ...standard,
  plan: 'premium',
  planName: 'Premium support',
  summary: 'Premium support comes with your 12 licensed nodes.',
  licensedNodes: 12,
  channels: [{ kind: 'phone', label: 'Phone', value: '+1 555 0100' }, ...standard.channels],
};

function renderPage(answer: { status: number; body: unknown }) {
  const fetch = fakeFetch({ 'GET /api/products/support': answer });
  vi.stubGlobal('fetch', fetch.fn);
  return {
    ...renderRoutes([{ path: '/app/support', element: <SupportPage /> }], { path: '/app/support', preloaded: userState(ada) }),
    fetch,
  };
}

describe('SupportPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells a customer without a subscription what they get and how to get more', async () => {
    renderPage({ status: 200, body: community });
    expect(await screen.findByRole('heading', { name: 'Community support' })).toBeInTheDocument();
    expect(screen.getByText('No plan')).toBeInTheDocument();
    expect(screen.getByText(/no support plan applies/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Choose a plan/ })).toHaveAttribute('href', '/app/billing');
    expect(screen.getByRole('link', { name: 'support@example.com' })).toHaveAttribute('href', 'mailto:support@example.com');
    const table = screen.getByRole('table');
    expect(within(table).getByRole('rowheader', { name: 'Any request' })).toBeInTheDocument();
    expect(within(table).getByText('Best effort, no guaranteed response time')).toBeInTheDocument();
  });

  it('shows a standard plan with its channels, hours, response targets and links, and the way to premium', async () => {
    renderPage({ status: 200, body: standard });
    expect(await screen.findByRole('heading', { name: 'Standard support' })).toBeInTheDocument();
    // The plan's name says 'Standard' already: the badge gives its state, not the name again.
    expect(screen.getByText('Included with your subscription')).toBeInTheDocument();
    expect(screen.queryByText('Standard', { exact: true })).toBeNull();
    expect(screen.getByText(/You have 3 licensed nodes\. With 10 or more \(7 more\)/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Add nodes in Billing/ })).toHaveAttribute('href', '/app/billing');
    const portal = screen.getByRole('link', { name: 'https://help.example.com' });
    expect(portal).toHaveAttribute('target', '_blank');
    expect(screen.getByText('Monday to Friday, 9:00 to 17:00 CET, except public holidays')).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'SeverityWhen it appliesFirst response',
      'Severity 1 (critical)Production is down4 business hours',
      'Severity 2 (high)A major function does not work1 business day',
      'Severity 3 (normal)A problem with a workaround2 business days',
      'Severity 4 (low)Questions5 business days',
    ]);
    for (const link of links) {
      const a = screen.getByRole('link', { name: link.label });
      expect(a).toHaveAttribute('href', link.url);
      expect(a).toHaveAttribute('target', '_blank');
    }
  });

  it('links the phone of a premium plan with tel:', async () => {
    renderPage({ status: 200, body: premium });
    expect(await screen.findByRole('heading', { name: 'Premium support' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+1 555 0100' })).toHaveAttribute('href', 'tel:+15550100');
    expect(screen.getByText('Based on 12 licensed nodes.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Choose a plan/ })).toBeNull();
  });

  it("shows the server's error and tries again", async () => {
    const { fetch } = renderPage({ status: 500, body: { message: 'Something went wrong on our side', code: 'INTERNAL' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Something went wrong on our side');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch.calls).toHaveLength(2));
  });

  it('shows skeletons while loading', () => {
    renderPage({ status: 200, body: community });
    expect(screen.getByLabelText('Loading support information')).toBeInTheDocument();
  });
});

describe('channelHref', () => {
  it('builds mailto:, tel: and web links', () => {
    expect(channelHref({ kind: 'email', label: 'E-mail', value: 'a@b.example' })).toBe('mailto:a@b.example');
    expect(channelHref({ kind: 'phone', label: 'Phone', value: '+44 (20) 7946-0000' })).toBe('tel:+442079460000');
    expect(channelHref({ kind: 'portal', label: 'Portal', value: 'https://help.example.com' })).toBe('https://help.example.com');
  });
});
