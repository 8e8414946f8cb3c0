import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import {
  cardBrandLabel,
  type PaymentMethod,
  type Subscription,
  formatDate,
  formatMoney,
  cardExpired,
  expiryLabel,
} from '@portal/contract';
import { useSearchParams } from 'react-router';
import { setAddMethodVisible } from '../../../lib/state/billing-slice';
import { useAppDispatch } from '../../../lib/state/hooks';
import { usePayOpenInvoiceMutation } from '../api';
import { PAY_PARAM } from '../billing-display';
import { newIdempotencyKey } from '../idempotency-key';
import { ErrorDisplay } from '@portal/ui';

export interface PayInvoiceDialogProps {
  subscriptions: Subscription[];
  methods: PaymentMethod[] | undefined;
}

/**
 * "Pay the open invoice": opened by /app/billing?pay={stripeId} (the banner's and the card's
 * button), for a subscription whose payment is failing. The customer picks a card on file, or adds
 * a new card (the add-card dialog: a new card pays the open invoice at once).
 */
export function PayInvoiceDialog({ subscriptions, methods }: PayInvoiceDialogProps) {
  const [params, setParams] = useSearchParams();
  const asked = params.get(PAY_PARAM);
  const subscription = subscriptions.find((s) => s.stripeId === asked && s.status === 'past_due' && s.paymentFailing);
  // Keeps the content on screen while the dialog fades out after the payment.
  const [shown, setShown] = useState<Subscription | undefined>(subscription);
  if (subscription && subscription !== shown) setShown(subscription);

  const close = () =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete(PAY_PARAM);
        return next;
      },
      { replace: true },
    );

  return (
    <Modal opened={subscription !== undefined} onClose={close} title="Pay the open invoice">
      {shown?.paymentFailing ? (
        <PayForm key={shown.stripeId} subscription={shown} methods={methods ?? []} onDone={close} />
      ) : null}
    </Modal>
  );
}

function PayForm({
  subscription: s,
  methods,
  onDone,
}: {
  subscription: Subscription;
  methods: PaymentMethod[];
  onDone: () => void;
}) {
  const dispatch = useAppDispatch();
  const failing = s.paymentFailing!;
  const usable = methods.filter((m) => !cardExpired(m.expMonth, m.expYear));
  // One card: it is the choice. Several: the customer chooses (the default may be the one that failed).
  const [cardId, setCardId] = useState<string | null>(usable.length === 1 ? usable[0]!.id : null);
  const [missing, setMissing] = useState(false);
  const [pay, { isLoading, error }] = usePayOpenInvoiceMutation();
  // One attempt, one key: a retried request cannot charge twice.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const amount = formatMoney(failing.amountDue, failing.currency);

  const submit = async () => {
    if (!cardId) {
      setMissing(true);
      return;
    }
    const result = await pay({ subscriptionId: s.stripeId, body: { paymentMethodId: cardId }, idempotencyKey });
    if ('error' in result) return;
    notifications.show({
      color: 'green',
      title: 'Payment received',
      message: `${amount} was paid. Your subscription is active again.`,
    });
    onDone();
  };

  const addCard = () => {
    onDone();
    dispatch(setAddMethodVisible(true));
  };

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text size="sm">
          Amount due: <strong style={{ fontVariantNumeric: 'tabular-nums' }}>{amount}</strong>
          {failing.invoiceNumber ? ` (invoice ${failing.invoiceNumber})` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          Your license keeps working until {formatDate(failing.accessUntil)}. Once paid, your subscription is active again at
          once.
        </Text>
      </Stack>

      {usable.length > 0 ? (
        <Radio.Group
          label="Pay with"
          value={cardId}
          onChange={(v) => {
            setCardId(v);
            setMissing(false);
          }}
          error={missing ? 'Choose a card to pay with.' : undefined}
        >
          <Stack gap="xs" mt="xs">
            {usable.map((m) => (
              <Radio
                key={m.id}
                value={m.id}
                label={`${cardBrandLabel(m.brand)} ending in ${m.last4}`}
                description={`Expires ${expiryLabel(m.expMonth, m.expYear)}${m.isDefault ? ' · default card' : ''}`}
              />
            ))}
          </Stack>
        </Radio.Group>
      ) : (
        <Text size="sm">You have no card that can pay. Add a card: it pays the invoice at once.</Text>
      )}

      <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={addCard} w="fit-content">
        Pay with a new card
      </Button>

      <ErrorDisplay error={error} />

      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onDone} disabled={isLoading}>
          Cancel
        </Button>
        {usable.length > 0 ? (
          <Button loading={isLoading} onClick={() => void submit()}>
            Pay {amount}
          </Button>
        ) : (
          <Button onClick={addCard}>Add a card</Button>
        )}
      </Group>
    </Stack>
  );
}
