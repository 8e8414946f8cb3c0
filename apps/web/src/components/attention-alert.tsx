import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCalendarEvent } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Attention } from '../lib/attention';
import { VendorQuote } from './vendor-quote';

const LOOK = {
  red: { color: 'red', icon: IconAlertCircle },
  yellow: { color: 'yellow', icon: IconAlertTriangle },
  info: { color: undefined, icon: IconCalendarEvent },
} as const;

/** One thing that needs the customer's attention: its title, its words, and the action that answers it. */
export function AttentionAlert({ attention }: { attention: Attention }) {
  const look = LOOK[attention.level];
  const Icon = look.icon;
  return (
    <Alert color={look.color} variant="light" radius="lg" icon={<Icon size={20} />} title={attention.title} role="status">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap="xs" style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Text size="sm">{attention.message}</Text>
          {attention.quotes?.map((q) => (
            <VendorQuote key={q.label} label={q.label} text={q.text} />
          ))}
        </Stack>
        <Button component={Link} to={attention.action.to} size="xs" variant="light" color={look.color}>
          {attention.action.label}
        </Button>
      </Group>
    </Alert>
  );
}
