import { List, Text } from '@mantine/core';
import { plural, formatDate } from '@portal/contract';
import type { ModalBodyProps } from '../../../components/modal-host';
import { useCancelSubscriptionMutation } from '../api';
import { SubscriptionChangeForm } from './subscription-change-form';

/** CancelSubscriptionModal: 'Cancel Subscription' at the end of the billing period. */
export function CancelSubscriptionModal({ props: sub, close }: ModalBodyProps<'CancelSubscriptionModal'>) {
  const [cancel] = useCancelSubscriptionMutation();
  const until = sub.currentPeriodEnd ? formatDate(sub.currentPeriodEnd) : null;

  return (
    <SubscriptionChangeForm
      type="cancel"
      subscriptionId={sub.stripeId}
      submitColor="red.8"
      close={close}
      submit={() => cancel(sub.stripeId)}
    >
      <Text size="sm">
        Cancel {sub.plan} ({plural(sub.quantity, 'node')}).
      </Text>
      <List size="sm" spacing={4}>
        {until ? (
          <List.Item>
            Your license keeps working until <strong>{until}</strong>, the end of the period you have paid for.
          </List.Item>
        ) : null}
        <List.Item>You will not be charged again, and nothing is refunded.</List.Item>
        <List.Item>You can re-activate the subscription any time before that date.</List.Item>
      </List>
    </SubscriptionChangeForm>
  );
}
