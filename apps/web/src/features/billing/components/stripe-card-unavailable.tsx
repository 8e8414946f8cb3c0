import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { PAGES } from '../../../lib/pages';
import { Link } from 'react-router';

/**
 * With Stripe, cards are typed into Stripe's own fields (Stripe Elements), so the card number
 * never touches this portal. That needs Stripe.js (@stripe/react-stripe-js), which this build
 * does not include yet; until it does, the dialog says so plainly instead of showing a form.
 */
export function StripeCardUnavailable({ onClose }: { onClose: () => void }) {
  return (
    <Stack gap="md" role="status">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={44} radius="xl" aria-hidden>
          <IconShieldLock size={24} stroke={1.6} />
        </ThemeIcon>
        <Stack gap={4}>
          <Text fw={600}>Card entry needs Stripe.js</Text>
          <Text size="sm" c="dimmed">
            Payments here are handled by Stripe, and cards are entered in Stripe&apos;s secure card form (Stripe.js), which this
            version of the portal cannot load yet. Your existing cards and subscriptions keep working. To add a card now, please
            contact support.
          </Text>
        </Stack>
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button component={Link} to={PAGES.support.path} onClick={onClose}>
          Contact support
        </Button>
      </Group>
    </Stack>
  );
}
