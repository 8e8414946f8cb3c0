import { Box, Center, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { type Interval, intervalLabel, otherInterval, plural, formatMoney } from '@portal/contract';
import type { ModalBodyProps } from '../../../components/modal-host';
import { periodTotal, yearlySaving } from '../billing-display';
import { useListPricesQuery, useUpdateIntervalMutation } from '../api';
import { ChargePreview } from './charge-preview';
import { SubscriptionChangeForm } from './subscription-change-form';
import classes from './billing.module.css';

function PeriodBox({ label, interval, amount }: { label: string; interval: Interval; amount: string | null }) {
  return (
    <Paper withBorder radius="md" p="sm" h="100%">
      <Stack gap={2}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
          {label}
        </Text>
        {/* 'monthly' / 'yearly' as every billing text writes them, never capitalised. */}
        <Text fw={600}>Billed {intervalLabel(interval)}</Text>
        <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {amount ?? '\u00a0'}
        </Text>
      </Stack>
    </Paper>
  );
}

/** UpdateBillingPeriodModal: 'Update Billing Period' (monthly <-> yearly). */
export function UpdateBillingPeriodModal({ props: sub, close }: ModalBodyProps<'UpdateBillingPeriodModal'>) {
  const next = otherInterval(sub.interval);
  const [update] = useUpdateIntervalMutation();
  const { data: price } = useListPricesQuery();
  const money = (n: number) => formatMoney(n, sub.currency);
  const nextAmount = price ? money(periodTotal(price, next, sub.quantity)) : null;
  const saving = price && next === 'year' ? yearlySaving(price, sub.quantity) : null;

  return (
    <SubscriptionChangeForm
      type="billing_period"
      subscriptionId={sub.stripeId}
      close={close}
      submit={() => update({ subscriptionId: sub.stripeId, interval: next })}
      details={() => ({ old_interval: sub.interval, new_interval: next })}
    >
      <Stack gap="xs">
        <Text size="sm">
          Switch {sub.plan} ({plural(sub.quantity, 'node')}) from {intervalLabel(sub.interval)} to {intervalLabel(next)} billing.
          The new period starts today; unused time is credited.
        </Text>
        <Group wrap="nowrap" gap="xs" align="stretch">
          <Box flex={1}>
            <PeriodBox
              label="Now"
              interval={sub.interval}
              amount={`${money(sub.unitAmount * sub.quantity)} per ${sub.interval}`}
            />
          </Box>
          <Center>
            <ThemeIcon variant="light" radius="xl" size="md" aria-hidden>
              <IconArrowRight size={16} />
            </ThemeIcon>
          </Center>
          <Box flex={1}>
            <PeriodBox label="New" interval={next} amount={nextAmount ? `${nextAmount} per ${next}` : null} />
          </Box>
        </Group>
        {saving && saving.amount > 0 ? (
          <Text size="sm" className={classes.saving} fw={500}>
            Paying yearly saves {money(saving.amount)} a year ({saving.percent}%).
          </Text>
        ) : null}
      </Stack>
      <ChargePreview subscriptionId={sub.stripeId} change={{ interval: next }} />
    </SubscriptionChangeForm>
  );
}
