import { Fragment, useId, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconArrowRight,
  IconCalendarEvent,
  IconCheck,
  IconCreditCard,
  IconDisc,
  IconInfoCircle,
  IconKey,
  IconLifebuoy,
} from '@tabler/icons-react';
import type { DownloadInfo, LicenseSummary, PaymentMethod, Subscription, SupportInfo } from '@portal/contract';
import { Link } from 'react-router';
import { ErrorDisplay } from '../../../components/error-display';
import { PageFrame } from '../../../components/page-frame';
import { errorMessage, errorStatus } from '../../../lib/api-error';
import { formatBytes, formatDate, formatMoney } from '../../../lib/format';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';
import { useGetLicenseSummaryQuery } from '../api';
import {
  currentSubscriptions,
  dashboardWarnings,
  nextSteps,
  renewalAmount,
  type DashboardWarning,
  type NextStep,
  type StepId,
} from '../dashboard-logic';

/** One read of another feature, as the page that composes the dashboard hands it over. */
export interface Loadable<T> {
  data: T | undefined;
  isLoading: boolean;
  error: unknown;
}

export interface DashboardViewProps {
  subscriptions: Loadable<Subscription[]>;
  paymentMethods: Loadable<PaymentMethod[]>;
  support: Loadable<SupportInfo>;
  download: Loadable<DownloadInfo>;
}

/**
 * /app/dashboard (menu entry 'Home'): licenses, subscriptions, support plan and the latest ISO at a
 * glance, what needs attention, and the next steps of a new customer. The license figures are this
 * feature's own; the rest comes from the other features through the composing page (src/app/dashboard).
 */
export function DashboardView({ subscriptions, paymentMethods, support, download }: DashboardViewProps) {
  const profile = useAppSelector((s) => s.user.profile);
  const summary = useGetLicenseSummaryQuery();
  const [now] = useState(() => new Date());
  const name = profile?.fname.trim() || profile?.lname.trim();

  const warnings = subscriptions.data
    ? dashboardWarnings({ subscriptions: subscriptions.data, methods: paymentMethods.data, summary: summary.data, now })
    : [];
  const steps = nextSteps({ subscriptions: subscriptions.data, summary: summary.data, now });

  return (
    <PageFrame
      page={PAGES.home.title}
      title={name ? `Welcome, ${name}` : 'Welcome'}
      description="Your licenses, subscription, support and downloads at a glance."
    >
      {warnings.length > 0 ? (
        <Stack gap="sm" component="section" aria-label="Needs your attention">
          {warnings.map((w) => (
            <WarningAlert key={w.id} warning={w} />
          ))}
        </Stack>
      ) : null}

      {steps ? <GetStarted steps={steps} /> : null}

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <LicensesCard summary={summary} />
        <SubscriptionsCard subscriptions={subscriptions} now={now} />
        <SupportCard support={support} />
        <DownloadCard download={download} />
      </SimpleGrid>
    </PageFrame>
  );
}

const WARNING_LOOK = {
  red: { color: 'red', icon: IconAlertCircle },
  yellow: { color: 'yellow', icon: IconAlertTriangle },
  info: { color: undefined, icon: IconCalendarEvent },
} as const;

function WarningAlert({ warning }: { warning: DashboardWarning }) {
  const look = WARNING_LOOK[warning.level];
  const Icon = look.icon;
  return (
    <Alert color={look.color} variant="light" radius="lg" icon={<Icon size={20} />} title={warning.title} role="status">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" style={{ flex: '1 1 320px' }}>
          {warning.message}
        </Text>
        <Button component={Link} to={warning.action.to} size="xs" variant="light" color={look.color}>
          {warning.action.label}
        </Button>
      </Group>
    </Alert>
  );
}

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

function GetStarted({ steps }: { steps: NextStep[] }) {
  const titleId = useId();
  const next = steps.find((s) => !s.done)?.id;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby={titleId}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2} size="h3" id={titleId}>
            Get started
          </Title>
          <Text c="dimmed" size="sm">
            Three steps from here to your first running node.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {steps.map((step, i) => {
            const s = STEPS[step.id];
            const isNext = step.id === next;
            return (
              <Stack key={step.id} component="li" gap="sm" align="flex-start">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon
                    radius="xl"
                    size="lg"
                    variant={step.done ? 'light' : isNext ? 'filled' : 'default'}
                    color={step.done ? 'green' : undefined}
                    aria-hidden
                  >
                    {step.done ? (
                      <IconCheck size={18} />
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
                  <Badge color="green" variant="light" radius="sm" tt="none" leftSection={<IconCheck size={12} />}>
                    {s.doneText}
                  </Badge>
                ) : (
                  <Button
                    component={Link}
                    to={s.to}
                    size="sm"
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

interface OverviewCardProps {
  icon: ReactNode;
  title: string;
  link: { label: string; to: string };
  children: ReactNode;
}

function OverviewCard({ icon, title, link, children }: OverviewCardProps) {
  const titleId = useId();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Stack gap="md" h="100%">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" radius="md" size="lg">
              {icon}
            </ThemeIcon>
            <Title order={2} size="h4" id={titleId}>
              {title}
            </Title>
          </Group>
          <Anchor component={Link} to={link.to} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {link.label}
          </Anchor>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

function CardSkeleton({ label }: { label: string }) {
  return (
    <Stack gap={10} aria-busy="true" aria-label={label}>
      <Skeleton height={28} width="40%" />
      <Skeleton height={12} width="80%" />
      <Skeleton height={8} />
    </Stack>
  );
}

/** A big figure with a small label after it. */
function Figure({ value, unit }: { value: ReactNode; unit: string }) {
  return (
    <Group gap={6} align="baseline">
      <Text fz={32} fw={700} lh={1} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      <Text c="dimmed">{unit}</Text>
    </Group>
  );
}

function LicensesCard({ summary }: { summary: ReturnType<typeof useGetLicenseSummaryQuery> }) {
  const link = { label: 'Manage', to: PAGES.licenses.path };
  const icon = <IconKey size={20} stroke={1.6} />;
  const data: LicenseSummary | undefined = summary.data;
  return (
    <OverviewCard icon={icon} title="Licenses" link={link}>
      {data ? (
        data.licenses === 0 ? (
          <Stack gap={4}>
            <Text fw={600}>No licenses yet</Text>
            <Text size="sm" c="dimmed">
              A license key is issued when you buy a subscription.
            </Text>
          </Stack>
        ) : (
          <Stack gap="sm">
            <Figure value={data.licenses} unit={data.licenses === 1 ? 'license' : 'licenses'} />
            <NodesInUse active={data.activeNodes} max={data.maxNodes} />
          </Stack>
        )
      ) : summary.isLoading ? (
        <CardSkeleton label="Loading licenses" />
      ) : (
        <ErrorDisplay error={summary.error} />
      )}
    </OverviewCard>
  );
}

function NodesInUse({ active, max }: { active: number; max: number }) {
  const ratio = max > 0 ? active / max : 0;
  const full = max > 0 && active >= max;
  const color = full ? 'red' : ratio >= 0.8 ? 'yellow' : undefined;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">Nodes in use</Text>
        <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {active} of {max}
        </Text>
      </Group>
      <Progress value={Math.min(100, ratio * 100)} color={color} size="md" aria-label={`${active} of ${max} nodes in use`} />
      <Text size="xs" c={full ? 'red' : 'dimmed'}>
        {max === 0 ? 'No license is valid at the moment.' : full ? 'At the limit: no node is free.' : `${max - active} free`}
      </Text>
    </Stack>
  );
}

function SubscriptionsCard({ subscriptions, now }: { subscriptions: Loadable<Subscription[]>; now: Date }) {
  const link = { label: 'Billing', to: PAGES.billing.path };
  const icon = <IconCreditCard size={20} stroke={1.6} />;
  const current = subscriptions.data ? currentSubscriptions(subscriptions.data, now) : [];
  return (
    <OverviewCard icon={icon} title="Subscription" link={link}>
      {subscriptions.data ? (
        current.length === 0 ? (
          <Stack gap="sm" align="flex-start">
            <Stack gap={4}>
              <Text fw={600}>No active subscription</Text>
              <Text size="sm" c="dimmed">
                Subscribe to get a license key, the ISO updates and standard support.
              </Text>
            </Stack>
            <Button
              component={Link}
              to={PAGES.billing.path}
              size="sm"
              variant="light"
              rightSection={<IconArrowRight size={16} />}
            >
              Choose a plan
            </Button>
          </Stack>
        ) : (
          <Stack gap="sm">
            {current.slice(0, 3).map((s, i) => (
              <Fragment key={s.stripeId}>
                {i > 0 ? <Divider /> : null}
                <SubscriptionLine subscription={s} />
              </Fragment>
            ))}
            {current.length > 3 ? (
              <Text size="sm" c="dimmed">
                and {current.length - 3} more
              </Text>
            ) : null}
          </Stack>
        )
      ) : subscriptions.isLoading ? (
        <CardSkeleton label="Loading subscriptions" />
      ) : (
        <ErrorDisplay error={subscriptions.error} />
      )}
    </OverviewCard>
  );
}

function SubscriptionLine({ subscription: s }: { subscription: Subscription }) {
  const badge = s.cancelAtPeriodEnd
    ? { label: 'Cancelled', color: 'yellow' }
    : s.status === 'past_due'
      ? { label: 'Payment failed', color: 'red' }
      : { label: 'Active', color: 'green' };
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fw={600}>
          {s.quantity} {s.quantity === 1 ? 'node' : 'nodes'} · {s.interval}ly
        </Text>
        <Badge color={badge.color} variant="light" radius="sm" tt="none" style={{ flexShrink: 0 }}>
          {badge.label}
        </Badge>
      </Group>
      {s.cancelAtPeriodEnd ? (
        <Text size="sm">
          Access until <strong>{formatDate(s.currentPeriodEnd)}</strong>
        </Text>
      ) : (
        <Text size="sm">
          Renews on <strong>{formatDate(s.currentPeriodEnd)}</strong> for{' '}
          <strong style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(renewalAmount(s), s.currency)}</strong>
        </Text>
      )}
    </Stack>
  );
}

const PLAN_BADGE = { none: 'No plan', standard: 'Standard', premium: 'Premium' } as const;

function SupportCard({ support }: { support: Loadable<SupportInfo> }) {
  const link = { label: 'Contacts', to: PAGES.support.path };
  const icon = <IconLifebuoy size={20} stroke={1.6} />;
  const info = support.data;
  const critical = info?.responseTargets[0];
  const email = info?.channels.find((c) => c.kind === 'email');
  return (
    <OverviewCard icon={icon} title="Support" link={link}>
      {info ? (
        <Stack gap="sm">
          <Group gap="xs">
            <Text fw={600}>{info.planName}</Text>
            <Badge variant="light" radius="sm" tt="none" color={info.plan === 'none' ? 'gray' : undefined}>
              {PLAN_BADGE[info.plan]}
            </Badge>
          </Group>
          {critical ? (
            <Text size="sm">
              {info.plan === 'none' ? 'Response time: ' : 'First answer to critical problems: '}
              <strong>{critical.target}</strong>
            </Text>
          ) : null}
          {email ? (
            <Text size="sm" c="dimmed">
              E-mail{' '}
              <Anchor href={`mailto:${email.value}`} inherit>
                {email.value}
              </Anchor>
            </Text>
          ) : null}
          {info.plan === 'none' ? (
            <Group gap={6} wrap="nowrap" align="flex-start">
              <IconInfoCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
              <Text size="sm" c="dimmed">
                Every subscription includes standard support.
              </Text>
            </Group>
          ) : null}
        </Stack>
      ) : support.isLoading ? (
        <CardSkeleton label="Loading support" />
      ) : (
        <ErrorDisplay error={support.error} />
      )}
    </OverviewCard>
  );
}

function DownloadCard({ download }: { download: Loadable<DownloadInfo> }) {
  const link = { label: 'Details', to: PAGES.downloadIso.path };
  const icon = <IconDisc size={20} stroke={1.6} />;
  const info = download.data;
  return (
    <OverviewCard icon={icon} title="Latest ISO" link={link}>
      {info ? (
        <Stack gap="sm" align="flex-start">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Version
            </Text>
            <Text fz={28} fw={700} lh={1.1} style={{ overflowWrap: 'anywhere' }}>
              {info.version}
            </Text>
          </Stack>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <Text span ff="monospace" inherit>
              {info.filename}
            </Text>{' '}
            · {formatBytes(info.size)}
          </Text>
          <Button
            component={Link}
            to={PAGES.downloadIso.path}
            size="sm"
            variant="light"
            rightSection={<IconArrowRight size={16} />}
          >
            Go to the download
          </Button>
        </Stack>
      ) : download.isLoading ? (
        <CardSkeleton label="Loading the latest ISO" />
      ) : errorStatus(download.error) === 404 ? (
        <Stack gap={4}>
          <Text fw={600}>No release yet</Text>
          <Text size="sm" c="dimmed">
            {errorMessage(download.error)}
          </Text>
        </Stack>
      ) : (
        <ErrorDisplay error={download.error} />
      )}
    </OverviewCard>
  );
}
