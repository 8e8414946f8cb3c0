import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconBook,
  IconBulb,
  IconClock,
  IconExternalLink,
  IconHeadset,
  IconHourglass,
  IconLifebuoy,
  IconMail,
  IconPhone,
  IconActivityHeartbeat,
  IconWorld,
} from '@tabler/icons-react';
import { type SupportInfo, type StatusTone } from '@portal/contract';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useGetSupportInfoQuery } from '../api';
import { CardHeader, ErrorDisplay, SectionCard, StatusBadge } from '@portal/ui';

type Channel = SupportInfo['channels'][number];

/** The state of the plan, by meaning: included (green) with a subscription, none (grey) without. */
const PLAN_STATE: Record<SupportInfo['plan'], { label: string; tone: StatusTone }> = {
  none: { label: 'No plan', tone: 'neutral' },
  standard: { label: 'Included with your subscription', tone: 'positive' },
  premium: { label: 'Included with your subscription', tone: 'positive' },
};

/** mailto:, tel: or the portal's address. */
export function channelHref(channel: Channel): string {
  if (channel.kind === 'email') return `mailto:${channel.value}`;
  if (channel.kind === 'phone') return `tel:${channel.value.replace(/[^\d+]/g, '')}`;
  return channel.value;
}

const CHANNEL_ICON = { email: IconMail, phone: IconPhone, portal: IconWorld } as const;

function linkIcon(label: string) {
  const l = label.toLowerCase();
  if (l.includes('status')) return IconActivityHeartbeat;
  if (l.includes('knowledge')) return IconBulb;
  return IconBook;
}

/** /app/support */
export function SupportPage() {
  const { data, isLoading, isFetching, error, refetch } = useGetSupportInfoQuery();
  return (
    <PageFrame title={PAGES.support.title} description="How to reach us, when, and how fast we answer on your plan.">
      {data ? (
        <SupportDetails info={data} />
      ) : isLoading ? (
        <SupportSkeleton />
      ) : error ? (
        <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />
      ) : null}
    </PageFrame>
  );
}

function SupportDetails({ info }: { info: SupportInfo }) {
  const state = PLAN_STATE[info.plan];
  return (
    <Stack gap="lg">
      <SectionCard
        icon={<IconLifebuoy size={18} stroke={1.7} />}
        title={info.planName}
        action={<StatusBadge tone={state.tone}>{state.label}</StatusBadge>}
      >
        <Text>{info.summary}</Text>
        <PlanNextStep info={info} />
      </SectionCard>

      {/* Channels and hours in one card: two cards side by side would leave one half empty. */}
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <CardHeader icon={<IconHeadset size={18} stroke={1.7} />} title="Contact us" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" verticalSpacing="lg">
            <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {info.channels.map((channel) => {
                const Icon = CHANNEL_ICON[channel.kind];
                const external = channel.kind === 'portal';
                return (
                  <Group key={`${channel.kind}-${channel.value}`} component="li" gap="sm" wrap="nowrap" align="flex-start">
                    <ThemeIcon variant="default" radius="md" size="lg">
                      <Icon size={18} stroke={1.6} />
                    </ThemeIcon>
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" c="dimmed">
                        {channel.label}
                      </Text>
                      <Anchor
                        href={channelHref(channel)}
                        fw={500}
                        style={{ overflowWrap: 'anywhere' }}
                        {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                      >
                        {channel.value}
                      </Anchor>
                    </Stack>
                  </Group>
                );
              })}
            </Stack>
            <Stack gap={6}>
              <Group gap={8} wrap="nowrap">
                <IconClock size={18} stroke={1.6} aria-hidden style={{ flexShrink: 0, opacity: 0.7 }} />
                <Title order={3} size="h6">
                  Hours
                </Title>
              </Group>
              <Text>{info.hours}</Text>
              <Text size="sm" c="dimmed">
                Include your license key and the version you run when you write: it lets us answer faster.
              </Text>
            </Stack>
          </SimpleGrid>
        </Stack>
      </Paper>

      <SectionCard
        icon={<IconHourglass size={18} stroke={1.7} />}
        title="Response times"
        description="How soon we first answer a request, by how severe the problem is."
      >
        <Table verticalSpacing="sm" horizontalSpacing="md" striped visibleFrom="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Severity</Table.Th>
              <Table.Th scope="col">When it applies</Table.Th>
              <Table.Th scope="col">First response</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {info.responseTargets.map((t) => (
              <Table.Tr key={t.severity}>
                <Table.Th scope="row" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {t.severity}
                </Table.Th>
                <Table.Td>{t.description}</Table.Td>
                <Table.Td fw={500}>{t.target}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {/* On phones the table becomes one small card per severity. */}
        <Stack gap="sm" hiddenFrom="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {info.responseTargets.map((t) => (
            <Paper key={t.severity} component="li" withBorder radius="md" p="sm">
              <Text fw={600} size="sm">
                {t.severity}
              </Text>
              <Text size="sm" c="dimmed">
                {t.description}
              </Text>
              <Text size="sm" mt={4}>
                First response: <strong>{t.target}</strong>
              </Text>
            </Paper>
          ))}
        </Stack>
      </SectionCard>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <CardHeader icon={<IconBook size={18} stroke={1.7} />} title="Help yourself" />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {info.links.map((link) => {
              const Icon = linkIcon(link.label);
              return (
                <Paper
                  key={link.url}
                  component="a"
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  withBorder
                  p="md"
                  radius="md"
                  className="portal-card-link"
                >
                  <Group gap="sm" wrap="nowrap" justify="space-between">
                    <Group gap="sm" wrap="nowrap">
                      <ThemeIcon variant="light" radius="md">
                        <Icon size={18} stroke={1.6} />
                      </ThemeIcon>
                      <Text fw={500}>{link.label}</Text>
                    </Group>
                    <IconExternalLink size={16} aria-hidden style={{ flexShrink: 0, opacity: 0.6 }} />
                  </Group>
                </Paper>
              );
            })}
          </SimpleGrid>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** What the customer can do to get more support than they have. */
function PlanNextStep({ info }: { info: SupportInfo }) {
  if (info.plan === 'premium') {
    return (
      <Text size="sm" c="dimmed">
        Based on {info.licensedNodes} licensed nodes.
      </Text>
    );
  }
  if (info.plan === 'none') {
    return (
      <Paper bg="var(--mantine-color-default-hover)" p="md" radius="md">
        <Group justify="space-between" gap="md">
          <Text size="sm" style={{ flex: '1 1 280px' }}>
            Subscribe to get standard support with guaranteed response times; from {info.premiumMinNodes} licensed nodes on,
            support is premium, with phone support and critical problems answered around the clock.
          </Text>
          <Button component={Link} to={PAGES.billing.path} rightSection={<IconArrowRight size={16} />}>
            Choose a plan
          </Button>
        </Group>
      </Paper>
    );
  }
  const missing = Math.max(0, info.premiumMinNodes - info.licensedNodes);
  return (
    <Paper bg="var(--mantine-color-default-hover)" p="md" radius="md">
      <Group justify="space-between" gap="md">
        <Text size="sm" style={{ flex: '1 1 280px' }}>
          You have {info.licensedNodes} licensed {info.licensedNodes === 1 ? 'node' : 'nodes'}. With {info.premiumMinNodes} or
          more ({missing} more), support becomes premium: phone support, and critical problems answered around the clock.
        </Text>
        <Button component={Link} to={PAGES.billing.path} variant="light" rightSection={<IconArrowRight size={16} />}>
          Add nodes in Billing
        </Button>
      </Group>
    </Paper>
  );
}

function SupportSkeleton() {
  return (
    <Stack gap="lg" aria-busy="true" aria-label="Loading support information">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Skeleton height={32} width={32} radius="md" />
          <Stack gap={10} style={{ flex: 1 }}>
            <Skeleton height={22} width="35%" />
            <Skeleton height={12} />
            <Skeleton height={12} width="80%" />
          </Stack>
        </Group>
      </Paper>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap={10}>
          <Skeleton height={18} width="30%" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
            <Skeleton height={12} width="70%" />
            <Skeleton height={12} width="55%" />
          </SimpleGrid>
        </Stack>
      </Paper>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap={10}>
          <Skeleton height={18} width="25%" />
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={14} />
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
