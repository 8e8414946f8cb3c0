import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Invoice, type PaymentMethod, type Subscription, formatDate } from '@portal/contract';
import { aSubscription } from '../../../test/fixtures';
import { ada, renderRoutes, userState, portalConfig } from '../../../test/render';
import { installStripeJsStandIn } from '../../../test/stripe-js-stand-in';
import { stripeJsLoader } from '../stripe/stripe-js';
import { BillingPage } from './billing-page';
import { fakeFetch } from '@portal/ui/test';

// Stripe.js comes from the stand-in (installed on window); a test can make its loading fail.
const stripeLoad = { fail: false };

const config = portalConfig;
const prices = { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 };
const visa: PaymentMethod = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, isDefault: true };
const mastercard: PaymentMethod = {
  id: 'pm_2',
  brand: 'mastercard',
  last4: '4444',
  expMonth: 1,
  expYear: 2031,
  isDefault: false,
};
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const periodEnd = days(20);
const sub: Subscription = aSubscription({
  stripeId: 'sub_123',
  currentPeriodStart: days(-10),
  currentPeriodEnd: periodEnd,
  plan: 'Node license',
  unitAmount: 2500,
  licenseKey: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
});
const invoice: Invoice = {
  id: 'inv_1',
  number: 'INV-1001',
  status: 'paid',
  amountDue: 7500,
  amountPaid: 7500,
  currency: 'usd',
  created: '2026-06-01T12:00:00.000Z',
  periodStart: '2026-06-01T12:00:00.000Z',
  periodEnd: '2026-07-01T12:00:00.000Z',
  url: '/api/billing/invoices/inv_1',
};

type Answers = Parameters<typeof fakeFetch>[0];

function renderBilling(answers: Answers = {}) {
  const all: Answers = {
    'GET /api/config': { status: 200, body: config },
    'GET /api/billing/prices': { status: 200, body: prices },
    'GET /api/billing/methods/': { status: 200, body: { items: [] } },
    'GET /api/billing/subscriptions/': { status: 200, body: { items: [] } },
    // The billing details card beside the cards (not given yet).
    'GET /api/billing/details': { status: 200, body: { details: null } },
    ...answers,
  };
  const fetch = fakeFetch(all);
  const headers: Array<{ path: string; headers: Headers }> = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    headers.push({ path: new URL(request.url).pathname, headers: request.headers });
    return fetch.fn(input, init);
  });
  return {
    ...renderRoutes([{ path: '/app/billing', element: <BillingPage /> }], {
      path: '/app/billing',
      preloaded: userState(ada),
    }),
    fetch,
    headers,
    answers: all,
  };
}

describe('BillingPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  describe('a new customer', () => {
    it('offers the checkout, says there is no card yet, and cannot subscribe without one', async () => {
      const { store } = renderBilling();
      expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'Start a subscription' })).toBeInTheDocument();
      expect(await screen.findByText('No cards yet')).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeDisabled();
      // One way to add a card, not two: the Payment methods card's button.
      expect(screen.getAllByRole('button', { name: /add (a )?card/i })).toHaveLength(1);
      expect(screen.getByText('Add a card under Payment methods to subscribe.')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Add card' }));
      expect(store.getState().billing.addMethodVisible).toBe(true);
    });

    it('prices the chosen nodes per month or per year, with the yearly saving', async () => {
      renderBilling({ 'GET /api/billing/methods/': { status: 200, body: { items: [visa] } } });
      const nodes = await screen.findByLabelText(/Number of nodes/);
      await userEvent.clear(nodes);
      await userEvent.type(nodes, '3');
      const price = screen.getByRole('group', { name: 'Price' });
      expect(price).toHaveTextContent('3 × $25.00 per node');
      expect(price).toHaveTextContent('Total per month$75.00');
      expect(price).toHaveTextContent('Pay yearly to save $150.00 a year.');
      await userEvent.click(screen.getByRole('radio', { name: /yearly/ }));
      expect(price).toHaveTextContent('Total per year$750.00');
      expect(price).toHaveTextContent('You save $150.00 a year compared with monthly billing.');
      await userEvent.clear(nodes);
      await userEvent.type(nodes, '100');
      await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
      expect(await screen.findByText('The quantity can be at most 99')).toBeInTheDocument();
    });

    it('buys with the chosen card and an Idempotency-Key, then lists the subscription', async () => {
      const { fetch, headers, answers, store } = renderBilling({
        'GET /api/billing/methods/': { status: 200, body: { items: [visa, mastercard] } },
        'POST /api/billing/intents/checkout': { status: 201, body: { subscription: sub } },
        'GET /api/billing/subscriptions/sub_123/invoices': { status: 200, body: { items: [invoice] } },
      });
      const nodes = await screen.findByLabelText(/Number of nodes/);
      await userEvent.clear(nodes);
      await userEvent.type(nodes, '3');
      await userEvent.click(screen.getByLabelText('Pay with', { selector: 'input' }));
      await userEvent.click(await screen.findByRole('option', { name: 'Mastercard ending in 4444', hidden: true }));
      answers['GET /api/billing/subscriptions/'] = { status: 200, body: { items: [sub] } };
      await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
      expect(await screen.findByRole('article', { name: 'Node license' })).toBeInTheDocument();
      const post = fetch.calls.find((c) => c.method === 'POST')!;
      expect(JSON.parse(post.body!)).toEqual({ interval: 'month', quantity: 3, paymentMethodId: 'pm_2' });
      const key = headers.find((h) => h.path === '/api/billing/intents/checkout')!.headers.get('idempotency-key');
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(store.getState().license.highlight).toBe(sub.licenseKey);
    });

    it('shows the server error of a declined checkout', async () => {
      renderBilling({
        'GET /api/billing/methods/': { status: 200, body: { items: [visa] } },
        'POST /api/billing/intents/checkout': {
          status: 402,
          body: { message: 'Your card has insufficient funds.', code: 'CARD_DECLINED' },
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Error: Your card has insufficient funds.');
    });
  });

  describe('a subscriber', () => {
    const withSub = (s: Subscription, invoices: Invoice[] = [invoice]): Answers => ({
      'GET /api/billing/methods/': { status: 200, body: { items: [visa] } },
      'GET /api/billing/subscriptions/': { status: 200, body: { items: [s] } },
      [`GET /api/billing/subscriptions/${s.stripeId}/invoices`]: { status: 200, body: { items: invoices } },
    });

    it('shows plan, status, quantity, interval, renewal, license key and invoices', async () => {
      renderBilling(withSub(sub));
      const card = await screen.findByRole('article', { name: 'Node license' });
      expect(within(card).getByText('Active')).toBeInTheDocument();
      // The number of nodes said once, the interval as 'monthly'.
      expect(within(card).getByText('3 nodes, monthly')).toBeInTheDocument();
      expect(within(card).queryByText('Nodes')).not.toBeInTheDocument();
      expect(card.textContent!.match(/3 nodes/g)).toHaveLength(1);
      expect(within(card).getByText('Renews on')).toBeInTheDocument();
      expect(within(card).getByText(formatDate(periodEnd))).toBeInTheDocument();
      // The key is text to copy, not an underlined link; a quiet button leads to its nodes.
      expect(within(card).getByText(sub.licenseKey!).closest('a')).toBeNull();
      expect(within(card).getByRole('link', { name: `Show license ${sub.licenseKey} on the Licenses page` })).toHaveAttribute(
        'href',
        `/app/licenses?highlight=${sub.licenseKey}`,
      );
      const table = await within(card).findByRole('table', { name: 'Invoices' });
      const row = within(table).getAllByRole('row')[1]!;
      expect(row).toHaveTextContent('INV-1001');
      expect(row).toHaveTextContent('$75.00');
      expect(row).toHaveTextContent('Paid');
      const view = within(row).getByRole('link', { name: /^View/ });
      expect(view).toHaveAttribute('href', '/api/billing/invoices/inv_1');
      expect(view).toHaveAttribute('target', '_blank');
      // The checkout folds away for customers who already subscribe.
      expect(screen.getByRole('button', { name: 'New subscription' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
    });

    it('opens the change modals with the subscription as props', async () => {
      const { store } = renderBilling(withSub(sub));
      const card = await screen.findByRole('article', { name: 'Node license' });
      for (const [button, id] of [
        ['Change quantity', 'ChangeQuantityModal'],
        ['Change billing period', 'UpdateBillingPeriodModal'],
        ['Cancel subscription', 'CancelSubscriptionModal'],
      ] as const) {
        await userEvent.click(within(card).getByRole('button', { name: button }));
        expect(store.getState().menu.modal).toMatchObject({
          open: true,
          id,
          props: { stripeId: 'sub_123', quantity: 3, interval: 'month' },
        });
      }
    });

    it('shows a cancelled subscription with "access until" and Re-activate beside it', async () => {
      const { store } = renderBilling(withSub({ ...sub, cancelAtPeriodEnd: true }));
      const card = await screen.findByRole('article', { name: 'Node license' });
      expect(within(card).getByText('Cancelled')).toBeInTheDocument();
      expect(card).toHaveTextContent(`Cancelled: access until ${formatDate(periodEnd)}`);
      expect(within(card).queryByRole('button', { name: 'Change quantity' })).not.toBeInTheDocument();
      await userEvent.click(within(card).getByRole('button', { name: 'Re-activate' }));
      expect(store.getState().menu.modal).toMatchObject({ open: true, id: 'ReactivateSubscriptionModal' });
    });

    it('says when there are no invoices yet, and shows list errors', async () => {
      renderBilling({
        ...withSub(sub, []),
        'GET /api/billing/methods/': { status: 500, body: { message: 'The card list is unavailable', code: 'INTERNAL' } },
      });
      expect(await screen.findByText(/No invoices yet/)).toBeInTheDocument();
      expect(await screen.findByRole('alert')).toHaveTextContent('Error: The card list is unavailable');
    });

    it('reads the cards again with Retry after a failed read', async () => {
      const { answers } = renderBilling({
        'GET /api/billing/methods/': { status: 500, body: { message: 'The card list is unavailable', code: 'INTERNAL' } },
      });
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Error: The card list is unavailable');
      answers['GET /api/billing/methods/'] = { status: 200, body: { items: [visa] } };
      await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
      const cards = screen.getByRole('region', { name: 'Payment methods' });
      expect((await within(cards).findAllByText(/4242/)).length).toBeGreaterThan(0);
      expect(within(cards).queryByRole('alert')).toBeNull();
    });
  });

  describe('payment methods', () => {
    it('marks the default card and removes a card after confirmation', async () => {
      const { fetch } = renderBilling({
        'GET /api/billing/methods/': { status: 200, body: { items: [visa, mastercard] } },
        'DELETE /api/billing/methods/pm_2': { status: 204 },
      });
      const cards = await screen.findByRole('list', { name: 'Cards' });
      const first = within(cards).getByRole('listitem', { name: 'Visa ending in 4242' });
      expect(first).toHaveTextContent('Default');
      expect(first).toHaveTextContent('Expires 12/2034');
      expect(within(cards).getByRole('listitem', { name: 'Mastercard ending in 4444' })).not.toHaveTextContent('Default');
      await userEvent.click(screen.getByRole('button', { name: 'Remove Mastercard ending in 4444' }));
      const confirm = await screen.findByRole('dialog', { name: 'Remove card?' });
      expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
      await userEvent.click(within(confirm).getByRole('button', { name: 'Remove card' }));
      await waitFor(() =>
        expect(fetch.calls.some((c) => c.method === 'DELETE' && c.path === '/api/billing/methods/pm_2')).toBe(true),
      );
    });

    it('shows why the server refuses to remove the only card paying for a subscription', async () => {
      renderBilling({
        'GET /api/billing/methods/': { status: 200, body: { items: [visa] } },
        'DELETE /api/billing/methods/pm_1': {
          status: 409,
          body: {
            message: 'This card pays for an active subscription. Add another card first, or cancel the subscription.',
            code: 'CONFLICT',
          },
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Remove Visa ending in 4242' }));
      const confirm = await screen.findByRole('dialog', { name: 'Remove card?' });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Remove card' }));
      expect(await within(confirm).findByRole('alert')).toHaveTextContent(
        'Error: This card pays for an active subscription. Add another card first, or cancel the subscription.',
      );
    });
  });

  describe('the add-card dialog', () => {
    const setup = { status: 200, body: { provider: 'local', clientSecret: 'seti_local_secret' } };

    it('is shown while billing.addMethodVisible is set, with the test card hint', async () => {
      const { store } = renderBilling({ 'POST /api/billing/intents/setup': setup });
      await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
      expect(store.getState().billing.addMethodVisible).toBe(true);
      const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
      expect(dialog).toHaveTextContent('Test mode: use 4242 4242 4242 4242');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(store.getState().billing.addMethodVisible).toBe(false);
    });

    it('shows the brand as the number is typed', async () => {
      renderBilling({ 'POST /api/billing/intents/setup': setup });
      await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
      const number = within(dialog).getByLabelText(/Card number/);
      expect(within(dialog).queryByTestId('card-brand')).not.toBeInTheDocument();
      await userEvent.type(number, '4');
      expect(within(dialog).getByTestId('card-brand')).toHaveTextContent('Visa');
      await userEvent.clear(number);
      await userEvent.type(number, '5555');
      expect(within(dialog).getByTestId('card-brand')).toHaveTextContent('Mastercard');
      await userEvent.clear(number);
      await userEvent.type(number, '3782');
      expect(within(dialog).getByTestId('card-brand')).toHaveTextContent('American Express');
      expect(within(dialog).getByLabelText(/Security code/)).toHaveAttribute('maxlength', '4');
    });

    it('checks the fields inline, then saves the card with the setup secret', async () => {
      const { fetch, store } = renderBilling({
        'POST /api/billing/intents/setup': setup,
        'POST /api/billing/local/confirm-setup': { status: 201, body: { paymentMethod: visa } },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
      const number = within(dialog).getByLabelText(/Card number/);
      await userEvent.type(number, '4242424242424241');
      expect(number).toHaveValue('4242 4242 4242 4241');
      await userEvent.type(within(dialog).getByLabelText(/Expiry date/), '0120');
      await userEvent.type(within(dialog).getByLabelText(/Security code/), '12');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled());
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(within(dialog).getByText('Your card number is invalid.')).toBeInTheDocument();
      expect(within(dialog).getByText('Your card has expired.')).toBeInTheDocument();
      expect(within(dialog).getByText("Your card's security code is incomplete.")).toBeInTheDocument();
      expect(fetch.calls.some((c) => c.path === '/api/billing/local/confirm-setup')).toBe(false);

      await userEvent.clear(number);
      await userEvent.type(number, '4242 4242 4242 4242');
      const expiry = within(dialog).getByLabelText(/Expiry date/);
      await userEvent.clear(expiry);
      await userEvent.type(expiry, '1234');
      await userEvent.type(within(dialog).getByLabelText(/Security code/), '3');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      await waitFor(() => expect(store.getState().billing.addMethodVisible).toBe(false));
      const sent = fetch.calls.find((c) => c.path === '/api/billing/local/confirm-setup')!;
      expect(JSON.parse(sent.body!)).toEqual({
        clientSecret: 'seti_local_secret',
        number: '4242424242424242',
        expMonth: 12,
        expYear: 2034,
        cvc: '123',
      });
    });

    it("shows a declined card's message in the dialog", async () => {
      renderBilling({
        'POST /api/billing/intents/setup': setup,
        'POST /api/billing/local/confirm-setup': {
          status: 402,
          body: { message: 'Your card was declined.', code: 'CARD_DECLINED' },
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
      await userEvent.type(within(dialog).getByLabelText(/Card number/), '4000000000000002');
      await userEvent.type(within(dialog).getByLabelText(/Expiry date/), '1234');
      await userEvent.type(within(dialog).getByLabelText(/Security code/), '123');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled());
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Your card was declined.');
    });
  });

  describe('the add-card dialog on Stripe', () => {
    const stripeConfig = { ...config, billingProvider: 'stripe', stripePublishableKey: 'pk_test_1' };
    const intent = { provider: 'stripe', clientSecret: 'seti_1_secret_abc', publishableKey: 'pk_test_1' };
    const saved: PaymentMethod = { ...visa, id: 'pm_new', isDefault: true };
    beforeEach(() => {
      installStripeJsStandIn(window);
      const load = stripeJsLoader.get;
      vi.spyOn(stripeJsLoader, 'get').mockImplementation((key) =>
        stripeLoad.fail ? Promise.reject(new Error('blocked')) : load.call(stripeJsLoader, key),
      );
    });
    afterEach(() => {
      delete (window as { Stripe?: unknown }).Stripe;
      stripeLoad.fail = false;
      vi.mocked(stripeJsLoader.get).mockRestore();
    });

    async function openDialog(answers: Answers) {
      const view = renderBilling({
        'GET /api/config': { status: 200, body: stripeConfig },
        'POST /api/billing/intents/setup': { status: 200, body: intent },
        ...answers,
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
      return { ...view, dialog };
    }

    async function typeCard(dialog: HTMLElement, number: string) {
      await userEvent.type(await within(dialog).findByLabelText('Card number'), number);
      await userEvent.type(within(dialog).getByLabelText('Expiration date'), '12 / 34');
      await userEvent.type(within(dialog).getByLabelText('Security code'), '123');
    }

    it("saves a card typed into Stripe's Payment Element; the number goes to Stripe, never to the portal", async () => {
      const { dialog, fetch, answers } = await openDialog({
        'POST /v1/setup_intents/seti_1/confirm': {
          status: 200,
          body: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_new' },
        },
      });
      await typeCard(dialog, '4242424242424242');
      answers['GET /api/billing/methods/'] = { status: 200, body: { items: [saved] } };
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a card' })).not.toBeInTheDocument());
      const confirm = fetch.calls.find((c) => c.path === '/v1/setup_intents/seti_1/confirm')!;
      const form = new URLSearchParams(confirm.body!);
      expect(form.get('key')).toBe('pk_test_1');
      expect(form.get('client_secret')).toBe('seti_1_secret_abc');
      expect(form.get('payment_method_data[card][number]')).toBe('4242424242424242');
      expect(fetch.calls.filter((c) => c.path.startsWith('/api/') && c.body?.includes('4242424242424242'))).toEqual([]);
      expect(await screen.findByRole('listitem', { name: 'Visa ending in 4242' })).toBeInTheDocument();
    });

    it("shows Stripe's message for a declined card and keeps the dialog open", async () => {
      const { dialog } = await openDialog({
        'POST /v1/setup_intents/seti_1/confirm': {
          status: 402,
          body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
        },
      });
      await typeCard(dialog, '4000000000000002');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Your card was declined.');
      expect(within(dialog).getByRole('button', { name: 'Save card' })).toBeEnabled();
    });

    it('says what is missing before anything is sent to Stripe', async () => {
      const { dialog, fetch } = await openDialog({});
      await userEvent.type(await within(dialog).findByLabelText('Card number'), '4242');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Your card number is incomplete.');
      expect(fetch.calls.some((c) => c.path.startsWith('/v1/'))).toBe(false);
    });

    it('confirms a first payment the bank wants checked (3-D Secure) with Stripe.js, then shows the subscription active', async () => {
      const incomplete: Subscription = { ...sub, status: 'incomplete', licenseKey: null };
      const { fetch, answers } = renderBilling({
        'GET /api/config': { status: 200, body: stripeConfig },
        'GET /api/billing/methods/': { status: 200, body: { items: [visa] } },
        'POST /api/billing/intents/checkout': {
          status: 201,
          body: { subscription: incomplete, clientSecret: 'pi_7_secret_xyz' },
        },
        'POST /v1/payment_intents/pi_7/confirm': { status: 200, body: { id: 'pi_7', status: 'succeeded' } },
        'GET /api/billing/subscriptions/sub_123/invoices': { status: 200, body: { items: [invoice] } },
      });
      answers['GET /api/billing/subscriptions/'] = { status: 200, body: { items: [] } };
      await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
      answers['GET /api/billing/subscriptions/'] = { status: 200, body: { items: [incomplete] } };
      expect(await screen.findByRole('button', { name: 'Confirm payment' })).toBeInTheDocument();
      // No second purchase while the first one waits for the bank.
      expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Confirm payment' }));
      answers['GET /api/billing/subscriptions/'] = { status: 200, body: { items: [sub] } };
      const confirm = await waitFor(() => fetch.calls.find((c) => c.path === '/v1/payment_intents/pi_7/confirm')!);
      const form = new URLSearchParams(confirm.body!);
      expect(form.get('client_secret')).toBe('pi_7_secret_xyz');
      expect(form.get('payment_method')).toBe('pm_1');
      expect(form.get('key')).toBe('pk_test_1');
      // Polled until Stripe's webhook has made it active.
      const article = await screen.findByRole('article', { name: 'Node license' });
      await waitFor(() => expect(article).toHaveTextContent(sub.licenseKey!));
    });

    it("shows Stripe's message when the bank refuses the payment", async () => {
      renderBilling({
        'GET /api/config': { status: 200, body: stripeConfig },
        'GET /api/billing/methods/': { status: 200, body: { items: [visa] } },
        'POST /api/billing/intents/checkout': {
          status: 201,
          body: { subscription: { ...sub, status: 'incomplete', licenseKey: null }, clientSecret: 'pi_8_secret_xyz' },
        },
        'POST /v1/payment_intents/pi_8/confirm': {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'payment_intent_authentication_failure',
              message: 'We are unable to authenticate your payment method.',
            },
          },
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Confirm payment' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Error: We are unable to authenticate your payment method.');
      expect(screen.getByRole('button', { name: 'Confirm payment' })).toBeEnabled();
    });

    it('explains when Stripe.js cannot be loaded, and loads it on Try again', async () => {
      stripeLoad.fail = true;
      const { dialog } = await openDialog({});
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        "Error: Stripe's secure card form could not be loaded. Check your connection (and any content blocker), then try again.",
      );
      stripeLoad.fail = false;
      await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
      expect(await within(dialog).findByLabelText('Card number')).toBeInTheDocument();
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
