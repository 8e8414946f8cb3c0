import { Group, Select, Skeleton, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { cardBrandLabel, type PaymentMethod } from '@portal/contract';

export interface CheckoutPaymentMethodProps {
  cards: PaymentMethod[];
  loading: boolean;
  /** The card charged: the one chosen, else the default (else the first). */
  selected: PaymentMethod | null;
  onChange: (cardId: string) => void;
}

/** Which card the checkout charges: a note for none or one, a choice between several. */
export function CheckoutPaymentMethod({ cards, loading, selected, onChange }: CheckoutPaymentMethodProps) {
  if (loading) return <Skeleton height={36} />;
  if (cards.length === 0) {
    // One way to add a card on the page: the Payment methods card's button.
    return (
      <Group gap="xs" wrap="nowrap" c="dimmed">
        <IconCreditCard size={16} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" c="dimmed">
          Add a card under Payment methods to subscribe.
        </Text>
      </Group>
    );
  }
  if (cards.length === 1 && selected) {
    return (
      <Text size="sm" c="dimmed">
        Paid with {cardBrandLabel(selected.brand)} ending in {selected.last4}.
      </Text>
    );
  }
  return (
    <Select
      label="Pay with"
      allowDeselect={false}
      value={selected?.id ?? null}
      onChange={(v) => onChange(v ?? '')}
      data={cards.map((c) => ({
        value: c.id,
        label: `${cardBrandLabel(c.brand)} ending in ${c.last4}${c.isDefault ? ' (default)' : ''}`,
      }))}
    />
  );
}
