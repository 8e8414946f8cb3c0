import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MODAL_TITLES, TEXT, type ModalId, type Subscription } from '@portal/contract';
import { ModalHost } from '../../../components/modal-host';
import { createNoopSink, setAnalyticsSink } from '../../../lib/analytics';
import { showModal } from '../../../lib/state/menu-slice';
import { renderWithStore } from '../../../test/render';
import { toModalProps } from '../billing-display';
import { pageReload } from '../reload-page';
import { CancelSubscriptionModal } from './cancel-subscription-modal';
import { ChangeQuantityModal } from './change-quantity-modal';
import { ReactivateSubscriptionModal } from './reactivate-subscription-modal';
import { UpdateBillingPeriodModal } from './update-billing-period-modal';
import { fakeFetch } from '@portal/ui/test';

const sub: Subscription = {
  stripeId: 'sub_123',
  status: 'active',
  quantity: 3,
  interval: 'month',
  currentPeriodStart: '2026-06-01T12:00:00.000Z',
  currentPeriodEnd: '2026-07-01T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  endedReason: null,
  plan: 'Node license',
  unitAmount: 2500,
  currency: 'usd',
  licenseKey: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
  paymentFailing: null,
};

const preview = {
  amountDue: 4990,
  subtotal: 4990,
  creditApplied: 0,
  currency: 'usd',
  nextRenewalAt: '2026-07-01T12:00:00.000Z',
  nextRenewalAmount: 12500,
  lines: [
    {
      description: 'Unused time on 3 × Node license (monthly)',
      quantity: 3,
      unitAmount: -2500,
      amount: -7400,
      periodStart: '',
      periodEnd: '',
    },
    {
      description: 'Remaining time on 5 × Node license (monthly)',
      quantity: 5,
      unitAmount: 2500,
      amount: 12390,
      periodStart: '',
      periodEnd: '',
    },
  ],
};

const bodies = {
  ChangeQuantityModal,
  UpdateBillingPeriodModal,
  CancelSubscriptionModal,
  ReactivateSubscriptionModal,
};

function open(id: ModalId, answers: Parameters<typeof fakeFetch>[0] = {}, subscription: Subscription = sub) {
  const fetch = fakeFetch({
    'GET /api/billing/prices': {
      status: 200,
      body: { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 },
    },
    ...answers,
  });
  vi.stubGlobal('fetch', fetch.fn);
  const rendered = renderWithStore(<ModalHost bodies={bodies} />);
  act(() => {
    rendered.store.dispatch(showModal({ id, props: toModalProps(subscription) }));
  });
  return { ...rendered, fetch };
}

const captures = () => (window.__analytics ?? []).filter((c) => c.type === 'capture');

describe('subscription modals', () => {
  // The page's reload, replaced whatever file imported the components first (ADR 044's shared graph).
  let reloadPage: MockInstance<() => void>;
  beforeEach(() => {
    reloadPage = vi.spyOn(pageReload, 'reload').mockImplementation(() => {});
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    setAnalyticsSink(createNoopSink());
  });
  afterEach(() => {
    setAnalyticsSink(null);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  describe('Update Subscription Quantity', () => {
    it('shows its title, the warning word for word, Cancel and Submit', async () => {
      open('ChangeQuantityModal');
      const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.ChangeQuantityModal });
      expect(dialog).toHaveTextContent(TEXT.warnQuantity);
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    });

    it.each([
      ['', 'Enter the new number of nodes'],
      ['0', 'The quantity must be at least 1'],
      ['100', 'The quantity can be at most 99'],
      ['2.5', 'The quantity must be a whole number'],
      ['3', TEXT.quantityMustDiffer],
    ])('refuses %j with %j and sends nothing', async (value, message) => {
      const { fetch } = open('ChangeQuantityModal');
      const dialog = await screen.findByRole('dialog');
      const field = within(dialog).getByLabelText(/New number of nodes/);
      await userEvent.clear(field);
      if (value) await userEvent.type(field, value);
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
      expect(fetch.calls.some((c) => c.method === 'PUT')).toBe(false);
      expect(fetch.calls.some((c) => c.path.endsWith('/preview'))).toBe(false);
    });

    it('asks for "I confirm" (compared without case)', async () => {
      const { fetch } = open('ChangeQuantityModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: preview },
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.clear(within(dialog).getByLabelText(/New number of nodes/));
      await userEvent.type(within(dialog).getByLabelText(/New number of nodes/), '5');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm it');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByText(TEXT.confirmRequired)).toBeInTheDocument();
      expect(fetch.calls.some((c) => c.method === 'PUT')).toBe(false);
    });

    it('starts at the current quantity, changed with the − and + buttons', async () => {
      const { fetch } = open('ChangeQuantityModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: preview },
      });
      const dialog = await screen.findByRole('dialog');
      const field = within(dialog).getByLabelText(/New number of nodes/);
      expect(field).toHaveValue('3');
      // Unchanged, there is nothing to price yet, and no error before the customer acts.
      expect(dialog).toHaveTextContent('Choose a new number of nodes to see what it costs now.');
      expect(within(dialog).queryByText(TEXT.quantityMustDiffer)).not.toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: 'One node more' }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'One node more' }));
      expect(field).toHaveValue('5');
      await within(dialog).findByRole('group', { name: 'Charge preview' });
      await waitFor(() =>
        expect(fetch.calls.filter((c) => c.path.endsWith('/preview')).map((c) => JSON.parse(c.body!))).toContainEqual({
          quantity: 5,
        }),
      );
      await userEvent.click(within(dialog).getByRole('button', { name: 'One node fewer' }));
      expect(field).toHaveValue('4');
    });

    it.each([' I confirm', 'I confirm ', ' I confirm '])(
      'refuses %j: the phrase is compared without case, but nothing is trimmed',
      async (typed) => {
        const { fetch } = open('ChangeQuantityModal', {
          'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: preview },
        });
        const dialog = await screen.findByRole('dialog');
        await userEvent.clear(within(dialog).getByLabelText(/New number of nodes/));
        await userEvent.type(within(dialog).getByLabelText(/New number of nodes/), '5');
        await userEvent.type(within(dialog).getByLabelText(/Confirmation/), typed);
        await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
        expect(await within(dialog).findByText(TEXT.confirmRequired)).toBeInTheDocument();
        expect(fetch.calls.some((c) => c.method === 'PUT')).toBe(false);
      },
    );

    it('says a refusal once when the preview and the change fail alike', async () => {
      const refusal = { message: 'This subscription is cancelled. Re-activate it before changing it.', code: 'CONFLICT' };
      open('ChangeQuantityModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 409, body: refusal },
        'PUT /api/billing/subscriptions/sub_123/quantity': { status: 409, body: refusal },
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.clear(within(dialog).getByLabelText(/New number of nodes/));
      await userEvent.type(within(dialog).getByLabelText(/New number of nodes/), '5');
      expect(await within(dialog).findByRole('alert', {})).toHaveTextContent(`Error: ${refusal.message}`);
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeEnabled());
      expect(within(dialog).getAllByText(refusal.message)).toHaveLength(1);
      expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
    });

    it('shows the charge now and the next renewal, then changes, records the event and reloads', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      const { fetch } = open('ChangeQuantityModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: preview },
      });
      const answer = fetch.fn;
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (request.method === 'PUT') {
          await held;
          return new Response(JSON.stringify({ subscription: { ...sub, quantity: 5 } }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }
        return answer(input, init);
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.clear(within(dialog).getByLabelText(/New number of nodes/));
      await userEvent.type(within(dialog).getByLabelText(/New number of nodes/), '5');
      const charge = await within(dialog).findByRole('group', { name: 'Charge preview' });
      expect(charge).toHaveTextContent('Charged now$49.90');
      expect(charge).toHaveTextContent(/Next renewal on Jul 1, 2026\$125\.00/);
      expect(JSON.parse(fetch.calls.find((c) => c.path.endsWith('/preview'))!.body!)).toEqual({ quantity: 5 });

      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'i CONFIRM');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByRole('button', { name: TEXT.submitting })).toBeDisabled();
      release();
      await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
      expect(captures()).toEqual([
        {
          type: 'capture',
          event: 'subscription_changed',
          properties: { type: 'quantity', stripe_subscription_id: 'sub_123', old_quantity: 3, new_quantity: 5 },
        },
      ]);
    });

    it('shows a failure inside the modal and lets the customer try again', async () => {
      open('ChangeQuantityModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: preview },
        'PUT /api/billing/subscriptions/sub_123/quantity': {
          status: 402,
          body: { message: 'Your card has insufficient funds.', code: 'CARD_DECLINED' },
        },
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.clear(within(dialog).getByLabelText(/New number of nodes/));
      await userEvent.type(within(dialog).getByLabelText(/New number of nodes/), '5');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Your card has insufficient funds.');
      expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeEnabled();
      expect(reloadPage).not.toHaveBeenCalled();
      expect(captures()).toEqual([]);
    });

    it("Cancel closes the modal and records 'subscription_change_cancelled'", async () => {
      const { store } = open('ChangeQuantityModal');
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(store.getState().menu.modal.open).toBe(false);
      expect(captures()).toEqual([
        {
          type: 'capture',
          event: 'subscription_change_cancelled',
          properties: { type: 'quantity', stripe_subscription_id: 'sub_123' },
        },
      ]);
    });
  });

  describe('closing a change without making it', () => {
    const cancelled = (type: string) => [
      {
        type: 'capture',
        event: 'subscription_change_cancelled',
        properties: { type, stripe_subscription_id: 'sub_123' },
      },
    ];

    it.each([
      ['ChangeQuantityModal', 'quantity'],
      ['UpdateBillingPeriodModal', 'billing_period'],
      ['CancelSubscriptionModal', 'cancel'],
      ['ReactivateSubscriptionModal', 'reactivate'],
    ] as const)("the close button of %s records 'subscription_change_cancelled' once", async (id, type) => {
      const { store } = open(id);
      const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES[id] });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      expect(store.getState().menu.modal.open).toBe(false);
      expect(captures()).toEqual(cancelled(type));
    });

    it("Escape records 'subscription_change_cancelled' once", async () => {
      const { store } = open('UpdateBillingPeriodModal');
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(within(dialog).getByLabelText(/Confirmation/));
      await userEvent.keyboard('{Escape}');
      expect(store.getState().menu.modal.open).toBe(false);
      // A second Escape while the modal fades out closes nothing more.
      await userEvent.keyboard('{Escape}');
      expect(captures()).toEqual(cancelled('billing_period'));
    });

    it('Cancel, then the close button during the closing transition, records it once', async () => {
      open('CancelSubscriptionModal');
      const dialog = await screen.findByRole('dialog');
      const close = within(dialog).getByRole('button', { name: 'Close' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await userEvent.click(close);
      expect(captures()).toEqual(cancelled('cancel'));
    });

    it('stays open and records no cancellation after a successful change (the page reloads)', async () => {
      const { store } = open('ReactivateSubscriptionModal', {
        'POST /api/billing/subscriptions/sub_123/reactivate': { status: 200, body: { subscription: sub } },
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(reloadPage).toHaveBeenCalled());
      // The reload is stubbed here, so the modal is still on screen, busy until the page goes.
      expect(within(dialog).getByRole('button', { name: 'Close' })).toBeDisabled();
      await userEvent.keyboard('{Escape}');
      expect(store.getState().menu.modal.open).toBe(true);
      expect(captures().map((c) => c.event)).toEqual(['subscription_changed']);
    });

    it('cannot be closed while the change is being made, so its outcome is seen (and nothing is recorded as cancelled)', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      const { store } = open('CancelSubscriptionModal');
      vi.stubGlobal('fetch', async () => {
        await held;
        return new Response(JSON.stringify({ message: 'The payment provider did not answer.', code: 'PROVIDER_ERROR' }), {
          status: 502,
          headers: { 'content-type': 'application/json' },
        });
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await within(dialog).findByRole('button', { name: TEXT.submitting });
      expect(within(dialog).getByRole('button', { name: 'Close' })).toBeDisabled();
      await userEvent.keyboard('{Escape}');
      expect(store.getState().menu.modal.open).toBe(true);
      release();
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: The payment provider did not answer.');
      expect(captures()).toEqual([]);
      // Once the answer is in, it closes again as usual.
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      expect(store.getState().menu.modal.open).toBe(false);
      expect(captures()).toEqual(cancelled('cancel'));
    });

    it('records the cancellation when the modal is closed after a failed change', async () => {
      open('CancelSubscriptionModal', {
        'DELETE /api/billing/subscriptions/sub_123/': {
          status: 502,
          body: { message: 'The payment provider did not answer.', code: 'PROVIDER_ERROR' },
        },
      });
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: The payment provider did not answer.');
      await userEvent.keyboard('{Escape}');
      expect(captures()).toEqual(cancelled('cancel'));
    });
  });

  describe('Update Billing Period', () => {
    it('switches monthly to yearly with the saving and the charge shown first', async () => {
      const { fetch } = open('UpdateBillingPeriodModal', {
        'POST /api/billing/subscriptions/sub_123/preview': { status: 200, body: { ...preview, amountDue: 67500 } },
        'PATCH /api/billing/subscriptions/sub_123/': { status: 200, body: { subscription: { ...sub, interval: 'year' } } },
      });
      const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.UpdateBillingPeriodModal });
      expect(dialog).toHaveTextContent(TEXT.warnInterval);
      expect(await within(dialog).findByText('Paying yearly saves $150.00 a year (17%).')).toBeInTheDocument();
      expect(await within(dialog).findByRole('group', { name: 'Charge preview' })).toHaveTextContent('Charged now$675.00');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(await within(dialog).findByText(TEXT.confirmRequired)).toBeInTheDocument();
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(reloadPage).toHaveBeenCalled());
      expect(JSON.parse(fetch.calls.find((c) => c.method === 'PATCH')!.body!)).toEqual({ interval: 'year' });
      expect(captures()[0]).toEqual({
        type: 'capture',
        event: 'subscription_changed',
        properties: { type: 'billing_period', stripe_subscription_id: 'sub_123', old_interval: 'month', new_interval: 'year' },
      });
    });
  });

  describe('Cancel Subscription', () => {
    it('warns word for word, says until when, and cancels at the period end', async () => {
      const { fetch } = open('CancelSubscriptionModal', {
        'DELETE /api/billing/subscriptions/sub_123/': {
          status: 200,
          body: { subscription: { ...sub, cancelAtPeriodEnd: true } },
        },
      });
      const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.CancelSubscriptionModal });
      expect(dialog).toHaveTextContent(TEXT.warnCancel);
      expect(dialog).toHaveTextContent('Your license keeps working until Jul 1, 2026');
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(reloadPage).toHaveBeenCalled());
      expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(true);
      expect(captures()[0]).toMatchObject({
        event: 'subscription_changed',
        properties: { type: 'cancel', stripe_subscription_id: 'sub_123' },
      });
    });
  });

  describe('Re-activate subscription', () => {
    it('shows no charge now and the next renewal, and re-activates', async () => {
      const { fetch } = open(
        'ReactivateSubscriptionModal',
        {
          'POST /api/billing/subscriptions/sub_123/reactivate': { status: 200, body: { subscription: sub } },
        },
        { ...sub, cancelAtPeriodEnd: true },
      );
      const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.ReactivateSubscriptionModal });
      expect(within(dialog).getByRole('group', { name: 'Charge preview' })).toHaveTextContent(
        'Charged now$0.00Next renewal on Jul 1, 2026$75.00',
      );
      await userEvent.type(within(dialog).getByLabelText(/Confirmation/), 'I confirm');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
      await waitFor(() => expect(reloadPage).toHaveBeenCalled());
      expect(fetch.calls.some((c) => c.method === 'POST' && c.path.endsWith('/reactivate'))).toBe(true);
      expect(captures()[0]).toMatchObject({
        event: 'subscription_changed',
        properties: { type: 'reactivate', stripe_subscription_id: 'sub_123' },
      });
    });
  });
});
