import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookAttempt, WebhookEndpoint } from '@portal/contract';
import { fakeFetch, renderRoutes, staff } from '../../../test/render';
import DeliveryLogPage from './delivery-log-page';
import WebhooksPage from './webhooks-page';

const ID = '7d6f4b7e-8c1b-4f6e-9a7b-1c2d3e4f5a6b';
const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: ID,
  url: 'https://crm.example.com/hooks',
  description: 'CRM',
  eventTypes: [],
  enabled: true,
  disabledReason: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});
const attempt: WebhookAttempt = {
  id: 9,
  deliveryId: 4,
  messageId: 'msg_abc',
  eventType: 'license.issued',
  attempt: 2,
  at: '2026-11-02T10:00:00.000Z',
  url: 'https://crm.example.com/hooks',
  requestBody: JSON.stringify({ type: 'license.issued', data: { sequence: 1 } }),
  responseStatus: 500,
  responseBody: 'down',
  error: 'The endpoint answered 500',
  durationMs: 31,
  deliveryStatus: 'pending',
};

afterEach(() => vi.unstubAllGlobals());

describe('WebhooksPage', () => {
  it('lists the endpoints with their status; adding one shows its secret once', async () => {
    const fetch = fakeFetch({
      'GET /api/console/webhooks': {
        status: 200,
        body: {
          items: [
            endpoint(),
            endpoint({ id: 'x', url: 'https://desk.example.com/in', enabled: false, disabledReason: 'failing' }),
          ],
        },
      },
      'POST /api/console/webhooks': { status: 201, body: { endpoint: endpoint(), secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' } },
    });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/webhooks', element: <WebhooksPage /> }], { path: '/webhooks', as: staff('owner') });
    expect(await screen.findByRole('link', { name: 'https://crm.example.com/hooks' })).toBeInTheDocument();
    expect(screen.getByText('Turned off: failing')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://crm.example.com/hooks');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'CRM sync');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('whsec_c2VjcmV0LXNob3duLW9uY2U=')).toBeInTheDocument();
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      url: 'https://crm.example.com/hooks',
      description: '',
      eventTypes: [],
      reason: 'CRM sync',
    });
  });

  it('refuses a URL that is not http(s) before calling the server', async () => {
    const fetch = fakeFetch({ 'GET /api/console/webhooks': { status: 200, body: { items: [] } } });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/webhooks', element: <WebhooksPage /> }], { path: '/webhooks', as: staff('owner') });
    expect(await screen.findByText('No endpoints yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'ftp://crm.example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'CRM sync');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('Enter a URL starting with https://')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('DeliveryLogPage', () => {
  it('shows each attempt with its answer, and resends with a reason', async () => {
    const fetch = fakeFetch({
      'GET /api/console/webhooks': { status: 200, body: { items: [endpoint()] } },
      [`GET /api/console/webhooks/${ID}/attempts`]: { status: 200, body: { items: [attempt], page: 1, size: 20, total: 1 } },
      [`POST /api/console/webhooks/${ID}/deliveries/4/resend`]: { status: 202, body: { deliveryId: 5 } },
    });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/webhooks/:endpointId', element: <DeliveryLogPage /> }], {
      path: `/webhooks/${ID}`,
      as: staff('owner'),
    });
    const table = await screen.findByRole('table', { name: 'Delivery attempts' });
    expect(within(table).getByText('license.issued')).toBeInTheDocument();
    expect(within(table).getByText('500')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resend license.issued' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend event' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'CRM was down');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Event queued again')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toBe(JSON.stringify({ reason: 'CRM was down' }));
  });

  it('names its page controls for screen readers and turns the page', async () => {
    const fetch = fakeFetch({
      'GET /api/console/webhooks': { status: 200, body: { items: [endpoint()] } },
      [`GET /api/console/webhooks/${ID}/attempts`]: { status: 200, body: { items: [attempt], page: 1, size: 20, total: 45 } },
    });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/webhooks/:endpointId', element: <DeliveryLogPage /> }], {
      path: `/webhooks/${ID}`,
      as: staff('owner'),
    });
    const pages = await screen.findByRole('navigation', { name: 'Pages of delivery attempts' });
    expect(screen.getByText('Showing 1–20 of 45 attempts')).toBeInTheDocument();
    for (const name of ['Previous page', 'Page 1', 'Page 2', 'Page 3', 'Next page'])
      expect(within(pages).getByRole('button', { name })).toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() =>
      expect(fetch.calls.map((c) => c.path)).toContain(`/api/console/webhooks/${ID}/attempts?page=2&size=20`),
    );
  });
});
