import { lazy, Suspense } from 'react';
import { Modal, Skeleton, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PaymentMethod } from '@portal/contract';
import { cardBrandLabel } from '@portal/contract';
import { useGetConfigQuery } from '../../../lib/api';
import { setAddMethodVisible } from '../../../lib/state/billing-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/state/hooks';
import { LocalCardForm } from './local-card-form';

// Stripe.js and its React bindings load only for a portal on Stripe, when the dialog opens.
const StripeCardForm = lazy(() => import('./stripe-card-form').then((m) => ({ default: m.StripeCardForm })));

/** The add-payment-method dialog; shown while `billing.addMethodVisible` is set. */
export function AddCardDialog() {
  const dispatch = useAppDispatch();
  const opened = useAppSelector((s) => s.billing.addMethodVisible);
  const { data: config } = useGetConfigQuery();
  const close = () => dispatch(setAddMethodVisible(false));
  const added = (card: PaymentMethod | null) => {
    close();
    notifications.show({
      color: 'green',
      title: 'Card added',
      message: card
        ? `${cardBrandLabel(card.brand)} ending in ${card.last4} was saved${card.isDefault ? ' as your default card' : ''}.`
        : 'Your card was saved.',
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Add a card">
      {config?.billingProvider === 'stripe' ? (
        <Suspense fallback={<Loading />}>
          <StripeCardForm onCancel={close} onAdded={added} />
        </Suspense>
      ) : (
        <LocalCardForm onCancel={close} onAdded={added} />
      )}
    </Modal>
  );
}

function Loading() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the secure card form">
      <Skeleton height={40} radius="md" />
      <Skeleton height={40} radius="md" />
    </Stack>
  );
}
