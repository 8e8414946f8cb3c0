import { useId } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconCheck, IconRocket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAGES } from '../../../lib/pages';
import type { NextStep, StepId } from '../dashboard-logic';
import { CardHeader, StatusBadge } from '@portal/ui';

const STEPS: Record<StepId, { title: string; text: string; action: string; to: string; doneText: string }> = {
  subscribe: {
    title: 'Buy a subscription',
    text: 'Pick monthly or yearly billing and the number of nodes. Your license key is issued at once.',
    action: 'Choose a plan',
    to: PAGES.billing.path,
    doneText: 'Subscribed',
  },
  download: {
    title: 'Download the ISO',
    text: 'Get the installer image and check it against its SHA-256 checksum.',
    action: 'Download the ISO',
    to: PAGES.downloadIso.path,
    doneText: 'Downloaded',
  },
  activate: {
    title: 'Activate a node',
    text: 'Install the ISO on a machine, then activate the machine with your license key.',
    action: 'Activate a node',
    to: PAGES.licenses.path,
    doneText: 'Activated',
  },
};

/** Activating needs a license key, which only a subscription issues: the step waits for the first one. */
const WAITS_FOR: Partial<Record<StepId, { step: StepId; hint: string }>> = {
  activate: { step: 'subscribe', hint: 'Available once your subscription has issued a license key.' },
};

/** The three steps of a new customer, the next one highlighted and the ones not yet possible held back. */
export function GetStarted({ steps }: { steps: NextStep[] }) {
  const titleId = useId();
  const next = steps.find((s) => !s.done)?.id;
  const done = new Set(steps.filter((s) => s.done).map((s) => s.id));
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Stack gap="lg">
        <CardHeader
          icon={<IconRocket size={18} stroke={1.7} />}
          title="Get started"
          titleId={titleId}
          description="Three steps from here to your first running node."
        />
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {steps.map((step, i) => {
            const s = STEPS[step.id];
            const isNext = step.id === next;
            const waitsFor = WAITS_FOR[step.id];
            const blocked = !!waitsFor && !done.has(waitsFor.step);
            return (
              <Stack key={step.id} component="li" gap="sm" align="flex-start">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon
                    radius="xl"
                    size={28}
                    variant={step.done ? 'light' : isNext ? 'filled' : 'default'}
                    color={step.done ? 'green' : undefined}
                    aria-hidden
                  >
                    {step.done ? (
                      <IconCheck size={16} />
                    ) : (
                      <Text fw={700} size="sm" inherit>
                        {i + 1}
                      </Text>
                    )}
                  </ThemeIcon>
                  <Text fw={600}>{s.title}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {s.text}
                </Text>
                {step.done ? (
                  <StatusBadge tone="positive" leftSection={<IconCheck size={12} />}>
                    {s.doneText}
                  </StatusBadge>
                ) : blocked ? (
                  <Stack gap={4} align="flex-start" mt="auto">
                    <Button size="sm" variant="default" disabled>
                      {s.action}
                    </Button>
                    <Text size="xs" c="dimmed">
                      {waitsFor.hint}
                    </Text>
                  </Stack>
                ) : (
                  <Button
                    component={Link}
                    to={s.to}
                    size="sm"
                    mt="auto"
                    variant={isNext ? 'filled' : 'light'}
                    rightSection={<IconArrowRight size={16} />}
                  >
                    {s.action}
                  </Button>
                )}
              </Stack>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
