import { useState } from 'react';
import { ActionIcon, Button, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCreditCard, IconPlus, IconTrash } from '@tabler/icons-react';
import { cardBrandLabel, type PaymentMethod, cardExpired, expiryLabel } from '@portal/contract';
import { setAddMethodVisible } from '../../../lib/state/billing-slice';
import { useAppDispatch } from '../../../lib/state/hooks';
import { useRemovePaymentMethodMutation } from '../api';
import { ItemSkeletons } from './billing-skeleton';
import { SectionHeader } from './section-header';
import { EmptyState, ErrorDisplay, StatusBadge, BrandIcon } from '@portal/ui';

export const cardName = (m: Pick<PaymentMethod, 'brand' | 'last4'>) => `${cardBrandLabel(m.brand)} ending in ${m.last4}`;

function CardRow({ method, first, onRemove }: { method: PaymentMethod; first: boolean; onRemove: () => void }) {
  const expired = cardExpired(method.expMonth, method.expYear);
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      gap="sm"
      py="sm"
      role="listitem"
      aria-label={cardName(method)}
      style={first ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <BrandIcon brand={method.brand} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Text fw={500} size="sm">
              {cardBrandLabel(method.brand)} •••• {method.last4}
            </Text>
            {method.isDefault ? (
              <StatusBadge size="xs" tone="info">
                Default
              </StatusBadge>
            ) : null}
          </Group>
          <Text size="xs" c={expired ? 'red' : 'dimmed'}>
            {expired ? 'Expired' : 'Expires'} {expiryLabel(method.expMonth, method.expYear)}
          </Text>
        </Stack>
      </Group>
      <Tooltip label="Remove card">
        <ActionIcon variant="subtle" color="gray" size="lg" onClick={onRemove} aria-label={`Remove ${cardName(method)}`}>
          <IconTrash size={18} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Confirms removing a card; the server refuses (409) when it is the only card paying for a subscription. */
function RemoveCardDialog({ method: asked, onClose }: { method: PaymentMethod | null; onClose: () => void }) {
  const [remove, { isLoading, error, reset }] = useRemovePaymentMethodMutation();
  // Keeps the card on screen while the dialog fades out.
  const [method, setMethod] = useState<PaymentMethod | null>(asked);
  if (asked && asked !== method) setMethod(asked);
  const close = () => {
    reset();
    onClose();
  };
  return (
    <Modal opened={asked !== null} onClose={close} title="Remove card?">
      {method ? (
        <Stack gap="md">
          <Text size="sm">
            {cardName(method)} will be removed from your account.
            {method.isDefault ? ' Another card, if you have one, becomes the default and pays your subscriptions.' : ''}
          </Text>
          <ErrorDisplay error={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={isLoading}>
              Keep card
            </Button>
            <Button
              color="red"
              loading={isLoading}
              onClick={async () => {
                const result = await remove(method.id);
                if ('error' in result) return;
                notifications.show({ color: 'green', title: 'Card removed', message: `${cardName(method)} was removed.` });
                close();
              }}
            >
              Remove card
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

export interface PaymentMethodsCardProps {
  methods: PaymentMethod[] | undefined;
  isLoading: boolean;
  error: unknown;
  /** Reads the cards again after a failed read. */
  onRetry?: () => void;
  retrying?: boolean;
}

/** The customer's cards: default marker, expiry, add and remove. */
export function PaymentMethodsCard({ methods, isLoading, error, onRetry, retrying }: PaymentMethodsCardProps) {
  const dispatch = useAppDispatch();
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="billing-methods-title">
      <Stack gap="sm">
        <SectionHeader
          title={<span id="billing-methods-title">Payment methods</span>}
          description="The default card pays for new subscriptions and renewals."
          action={
            <Button
              variant="light"
              size="sm"
              leftSection={<IconPlus size={16} />}
              onClick={() => dispatch(setAddMethodVisible(true))}
            >
              Add card
            </Button>
          }
        />
        {isLoading ? (
          <Stack gap="md" py="sm" aria-busy="true" aria-label="Loading payment methods">
            <ItemSkeletons count={2} />
          </Stack>
        ) : error ? (
          <ErrorDisplay error={error} onRetry={onRetry} retrying={retrying} />
        ) : !methods || methods.length === 0 ? (
          <EmptyState
            bare
            icon={<IconCreditCard size={28} stroke={1.6} />}
            title="No cards yet"
            description="Add a card to start a subscription. Only its brand, last four digits and expiry date are kept."
          />
        ) : (
          <Stack gap={0} role="list" aria-label="Cards">
            {methods.map((m, i) => (
              <CardRow key={m.id} method={m} first={i === 0} onRemove={() => setRemoving(m)} />
            ))}
          </Stack>
        )}
      </Stack>
      <RemoveCardDialog method={removing} onClose={() => setRemoving(null)} />
    </Paper>
  );
}
