import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { intervalLabel, QUANTITY_MAX, QUANTITY_MIN, quantityProblem, formatMoney } from '@portal/contract';
import type { ModalBodyProps } from '../../../components/modal-host';
import { useUpdateQuantityMutation } from '../api';
import { ChargePreview } from './charge-preview';
import { QuantityInput } from './quantity-input';
import { SubscriptionChangeForm } from './subscription-change-form';

/** ChangeQuantityModal: 'Update Subscription Quantity' (the host gives the title). */
export function ChangeQuantityModal({ props: sub, close }: ModalBodyProps<'ChangeQuantityModal'>) {
  const [update] = useUpdateQuantityMutation();
  // Starts at the current quantity: the customer moves it up or down from what they have.
  const [value, setValue] = useState<number | string>(sub.quantity);
  const [showErrors, setShowErrors] = useState(false);
  const error = quantityProblem(value, sub.quantity);
  const [settled] = useDebouncedValue(error === null ? Number(value) : null, 300);
  const money = (n: number) => formatMoney(n, sub.currency);

  return (
    <SubscriptionChangeForm
      type="quantity"
      subscriptionId={sub.stripeId}
      close={close}
      validate={() => {
        setShowErrors(true);
        return error === null;
      }}
      submit={() => update({ subscriptionId: sub.stripeId, quantity: Number(value) })}
      details={() => ({ old_quantity: sub.quantity, new_quantity: Number(value) })}
    >
      <Stack gap={4}>
        <Text size="sm">
          {sub.plan}: <strong>{sub.quantity}</strong> {sub.quantity === 1 ? 'node' : 'nodes'},{' '}
          {money(sub.unitAmount * sub.quantity)} {intervalLabel(sub.interval)}.
        </Text>
      </Stack>
      <QuantityInput
        label="New number of nodes"
        description={`From ${QUANTITY_MIN} to ${QUANTITY_MAX}; each node is ${money(sub.unitAmount)} ${intervalLabel(sub.interval)}.`}
        required
        data-autofocus
        value={value}
        onChange={setValue}
        onBlur={() => {
          // Leaving the field unchanged is no mistake yet; Submit says what is missing.
          if (value !== '' && Number(value) !== sub.quantity) setShowErrors(true);
        }}
        error={showErrors ? error : null}
      />
      <ChargePreview
        subscriptionId={sub.stripeId}
        change={settled !== null && settled === Number(value) && error === null ? { quantity: settled } : null}
        placeholder="Choose a new number of nodes to see what it costs now."
      />
    </SubscriptionChangeForm>
  );
}
