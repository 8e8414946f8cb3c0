import { Group, Paper, Stack, Text } from '@mantine/core';
import { intervalLabel, plural, formatDate, formatMoney } from '@portal/contract';
import type { ModalBodyProps } from '../../../components/modal-host';
import { useReactivateSubscriptionMutation } from '../api';
import { SubscriptionChangeForm } from './subscription-change-form';

/** ReactivateSubscriptionModal: 'Re-activate subscription', undoing a cancellation before it takes effect. */
export function ReactivateSubscriptionModal({ props: sub, close }: ModalBodyProps<'ReactivateSubscriptionModal'>) {
  const [reactivate] = useReactivateSubscriptionMutation();
  const renewal = sub.currentPeriodEnd ? formatDate(sub.currentPeriodEnd) : null;
  const amount = formatMoney(sub.unitAmount * sub.quantity, sub.currency);

  return (
    <SubscriptionChangeForm type="reactivate" subscriptionId={sub.stripeId} close={close} submit={() => reactivate(sub.stripeId)}>
      <Text size="sm">
        Keep {sub.plan} ({plural(sub.quantity, 'node')}, {intervalLabel(sub.interval)}) running after the current period. Your
        license stays valid without interruption.
      </Text>
      <Paper withBorder radius="md" p="md" role="group" aria-label="Charge preview">
        <Stack gap="xs">
          <Group justify="space-between" align="baseline" wrap="nowrap">
            <Text size="sm" fw={500}>
              Charged now
            </Text>
            <Text fw={700} size="xl" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(0, sub.currency)}
            </Text>
          </Group>
          {renewal ? (
            <Group justify="space-between" align="baseline" wrap="nowrap">
              <Text size="sm" c="dimmed">
                Next renewal on {renewal}
              </Text>
              <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {amount}
              </Text>
            </Group>
          ) : null}
        </Stack>
      </Paper>
    </SubscriptionChangeForm>
  );
}
