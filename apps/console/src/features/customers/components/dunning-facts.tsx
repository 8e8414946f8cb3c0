import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { type ConsoleDunning, formatDate, formatMoney } from '@portal/contract';

/**
 * A failing payment at a glance: since when, until when the license stays valid (the grace), the
 * next retry and what is due. Stripe retries its own subscriptions on its own schedule.
 */
export function DunningFacts({ dunning: d, stripe }: { dunning: ConsoleDunning; stripe: boolean }) {
  const facts: Array<[string, string]> = [
    ['Failing since', formatDate(d.failingSince)],
    ['Access until', formatDate(d.accessUntil)],
    ['Next retry', d.nextAttemptAt ? formatDate(d.nextAttemptAt) : stripe ? 'Scheduled by Stripe' : 'None before access ends'],
    ['Amount due', formatMoney(d.amountDue, d.currency)],
  ];
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      bg="var(--mantine-color-red-light)"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
      aria-label="Failing payment"
      component="section"
    >
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs">
        {facts.map(([label, value]) => (
          <Stack key={label} gap={0} style={{ minWidth: 0 }}>
            <Text size="xs" fw={500} c="var(--mantine-color-red-light-color)">
              {label}
            </Text>
            <Text size="sm" fw={600} className="console-figure">
              {value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
