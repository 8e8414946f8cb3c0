import type { ReactNode } from 'react';
import { Badge, Divider, Group, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconUser } from '@tabler/icons-react';
import { cardBrandLabel, type ConsoleCustomer, cardExpired, expiryLabel, formatDate } from '@portal/contract';
import { SectionCard, StatusBadge, BrandIcon, CopyIcon } from '@portal/ui';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" ta="right" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** Who the customer is, and the cards on file (brand, last 4 and expiry only). */
export function ProfileCard({ customer }: { customer: ConsoleCustomer }) {
  const { profile, cards } = customer;
  return (
    <SectionCard icon={<IconUser size={18} stroke={1.6} />} title="Profile" description="Account and payment details" gap="sm">
      <Fact label="E-mail">
        <Group gap={2} justify="flex-end" wrap="nowrap">
          {profile.email}
          <CopyIcon value={profile.email} label="Copy e-mail address" />
        </Group>
      </Fact>
      <Fact label="Company">{profile.company ?? '—'}</Fact>
      <Fact label="Customer since">{formatDate(profile.createdAt)}</Fact>
      <Fact label="Onboarding">{profile.onboarded ? 'Completed' : 'Not finished'}</Fact>
      <Fact label="Google sign-in">{profile.linkedIdentity ? 'Linked' : 'Not linked'}</Fact>
      <Fact label="Customer id">
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <Text span size="xs" ff="monospace">
            {profile.id}
          </Text>
          <CopyIcon value={profile.id} label="Copy customer id" />
        </Group>
      </Fact>
      <Divider my={4} />
      <Group gap="xs">
        <IconCreditCard size={16} stroke={1.6} aria-hidden />
        <Text size="sm" fw={600} component="h3" m={0}>
          Cards
        </Text>
      </Group>
      {cards.length === 0 ? (
        <Text size="sm" c="dimmed">
          No card on file.
        </Text>
      ) : (
        <Stack gap="xs">
          {cards.map((c) => {
            const expired = cardExpired(c.expMonth, c.expYear);
            return (
              <Group key={`${c.brand}-${c.last4}-${c.expYear}-${c.expMonth}`} gap="sm" wrap="nowrap">
                <BrandIcon brand={c.brand} size="sm" />
                <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {cardBrandLabel(c.brand)} •••• {c.last4}
                  </Text>
                  <Text size="xs" c={expired ? 'red' : 'dimmed'}>
                    {expired ? 'Expired' : 'Expires'} {expiryLabel(c.expMonth, c.expYear)}
                  </Text>
                </Stack>
                {c.isDefault ? (
                  <StatusBadge tone="info" size="sm">
                    Default
                  </StatusBadge>
                ) : null}
                {expired ? (
                  <Badge color="red" variant="light" size="sm">
                    Expired
                  </Badge>
                ) : null}
              </Group>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}
