import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MODAL_BACKDROP_TRANSITION_MS, MODAL_TRANSITION_MS } from '@portal/contract';
import { useGetConfigQuery } from '../../../lib/api';
import { setAddMethodVisible } from '../../../lib/state/billing-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/state/hooks';
import { brandLabel } from '../billing-display';
import { LocalCardForm } from './local-card-form';
import { StripeCardUnavailable } from './stripe-card-unavailable';

/** The add-payment-method dialog; shown while `billing.addMethodVisible` is set. */
export function AddCardDialog() {
  const dispatch = useAppDispatch();
  const opened = useAppSelector((s) => s.billing.addMethodVisible);
  const { data: config } = useGetConfigQuery();
  const close = () => dispatch(setAddMethodVisible(false));

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Add a card"
      centered
      radius="lg"
      padding="lg"
      transitionProps={{ duration: MODAL_TRANSITION_MS }}
      overlayProps={{ backgroundOpacity: 0.45, blur: 2, transitionProps: { duration: MODAL_BACKDROP_TRANSITION_MS } }}
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {config?.billingProvider === 'stripe' ? (
        <StripeCardUnavailable onClose={close} />
      ) : (
        <LocalCardForm
          onCancel={close}
          onAdded={(card) => {
            close();
            notifications.show({
              color: 'green',
              title: 'Card added',
              message: `${brandLabel(card.brand)} ending in ${card.last4} was saved${card.isDefault ? ' as your default card' : ''}.`,
            });
          }}
        />
      )}
    </Modal>
  );
}
