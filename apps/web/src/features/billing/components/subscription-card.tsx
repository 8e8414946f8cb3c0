import type { ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowRight,
  IconCalendarRepeat,
  IconCheck,
  IconCopy,
  IconRotateClockwise,
  IconStack2,
  IconX,
} from '@tabler/icons-react';
import {
  type ModalId,
  type Subscription,
  formatDate,
  formatMoney,
  customerSubscriptionBadge,
  subscriptionState,
} from '@portal/contract';
import { Link, useSearchParams } from 'react-router';
import { intervalLabel, plural } from '@portal/contract';
import { AttentionAlert } from '../../../components/attention-alert';
import { suspendedAttention } from '../../../lib/attention';
import { PAGES } from '../../../lib/pages';
import { useAppDispatch } from '../../../lib/state/hooks';
import { showModal } from '../../../lib/state/menu-slice';
import { PAY_PARAM, toModalProps } from '../billing-display';
import { useNarrow } from '../use-narrow';
import { InvoicesTable } from './invoices-table';
import { StatusBadge } from '@portal/ui';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="div" size="sm" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/** The key in monospace with a copy button, and a quiet way to see it on the Licenses page. */
export function LicenseKey({ licenseKey }: { licenseKey: string }) {
  return (
    <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
      <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
        <Text ff="monospace" size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {licenseKey}
        </Text>
        <CopyButton value={licenseKey}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy license key'}>
              <ActionIcon
                variant="subtle"
                color={copied ? 'green' : 'gray'}
                // 28 px: a tap target of at least 24 by 24 (WCAG 2.2), even beside other targets.
                size="md"
                onClick={copy}
                aria-label={copied ? 'Copied' : 'Copy license key'}
              >
                {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Button
        component={Link}
        to={`${PAGES.licenses.path}?highlight=${encodeURIComponent(licenseKey)}`}
        variant="subtle"
        size="compact-sm"
        rightSection={<IconArrowRight size={14} />}
        aria-label={`Show license ${licenseKey} on the Licenses page`}
      >
        View nodes
      </Button>
    </Group>
  );
}

/**
 * What the period's end means: a suspended license's subscription is still invoiced then (staff
 * suspended the license, not the billing), but nothing "renews" for a customer whose machines stopped.
 */
function dateLabel(state: ReturnType<typeof subscriptionState>, suspended: boolean): string {
  if (state === 'ended') return 'Ended';
  if (state === 'cancelling') return 'Access until';
  return suspended ? 'Next invoice on' : 'Renews on';
}

/** The badge of a running subscription whose license staff suspended (a node's wording of the same). */
const LICENSE_SUSPENDED_BADGE = { label: 'License suspended', tone: 'critical' } as const;

export interface SubscriptionCardProps {
  subscription: Subscription;
  /** Staff suspended its license: said in the badge and, with whom to contact, under the title. */
  licenseSuspended?: boolean;
  /** What staff told the customer about that suspension, quoted with it (none when they left no message). */
  suspensionMessage?: string | null;
}

/** One subscription: plan, status, quantity, price, renewal or end date, license key, actions, invoices. */
export function SubscriptionCard({ subscription: s, licenseSuspended = false, suspensionMessage = null }: SubscriptionCardProps) {
  const dispatch = useAppDispatch();
  const state = subscriptionState(s);
  // An ended subscription's license has no machines to stop: its end says enough.
  const suspended = licenseSuspended && state !== 'ended' && s.licenseKey !== null;
  const badge = suspended ? LICENSE_SUSPENDED_BADGE : customerSubscriptionBadge(s, state);
  const failing = state === 'past_due' ? s.paymentFailing : null;
  const [, setParams] = useSearchParams();
  const openPay = () =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set(PAY_PARAM, s.stripeId);
      return next;
    });
  const open = (id: ModalId) => dispatch(showModal({ id, props: toModalProps(s) }));
  const end = formatDate(s.currentPeriodEnd);
  const titleId = `subscription-${s.stripeId}`;
  // Beside the title on wider screens; on phones, full-width buttons under it.
  const narrow = useNarrow('xs');
  const buttons = (
    <>
      <Button
        variant="default"
        size="xs"
        fullWidth={narrow}
        leftSection={<IconStack2 size={14} />}
        onClick={() => open('ChangeQuantityModal')}
      >
        Change quantity
      </Button>
      <Button
        variant="default"
        size="xs"
        fullWidth={narrow}
        leftSection={<IconCalendarRepeat size={14} />}
        onClick={() => open('UpdateBillingPeriodModal')}
      >
        Change billing period
      </Button>
      <Button
        variant={narrow ? 'light' : 'subtle'}
        color="red"
        size="xs"
        fullWidth={narrow}
        leftSection={<IconX size={14} />}
        onClick={() => open('CancelSubscriptionModal')}
      >
        Cancel subscription
      </Button>
    </>
  );
  const actions = narrow ? (
    <Stack gap="xs">{buttons}</Stack>
  ) : (
    <Group gap="xs" wrap="wrap">
      {buttons}
    </Group>
  );

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="article" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Title order={3} size="h4" id={titleId}>
                {s.plan}
              </Title>
              <StatusBadge tone={badge.tone}>{badge.label}</StatusBadge>
            </Group>
            {/* The number of nodes is said here once; the figures below hold price and dates. */}
            <Text size="sm" c="dimmed">
              {plural(s.quantity, 'node')}, {intervalLabel(s.interval)}
            </Text>
          </Stack>
          {state === 'active' && !narrow ? actions : null}
        </Group>
        {state === 'active' && narrow ? actions : null}

        {suspended && s.licenseKey ? (
          <AttentionAlert
            attention={suspendedAttention([s.licenseKey], suspensionMessage ? { [s.licenseKey]: suspensionMessage } : {})}
          />
        ) : null}

        {state === 'cancelling' ? (
          <Alert role="note" variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} py="sm">
            <Group justify="space-between" gap="sm">
              <Text size="sm">
                Cancelled: access until <strong>{end}</strong>. Re-activate to keep your license after that date.
              </Text>
              <Button
                size="xs"
                leftSection={<IconRotateClockwise size={14} />}
                onClick={() => open('ReactivateSubscriptionModal')}
              >
                Re-activate
              </Button>
            </Group>
          </Alert>
        ) : null}
        {state === 'past_due' ? (
          <Alert role="note" variant="light" color="red" icon={<IconAlertTriangle size={18} />} py="sm">
            <Group justify="space-between" gap="sm">
              <Text size="sm">
                {failing
                  ? `The payment of ${formatMoney(failing.amountDue, failing.currency)} failed. `
                  : 'The last payment failed. '}
                {failing?.nextAttemptAt ? `Next try on ${formatDate(failing.nextAttemptAt)}. ` : ''}
                {failing ? (
                  <>
                    Your license keeps working until <strong>{formatDate(failing.accessUntil)}</strong>.
                  </>
                ) : (
                  'Your license keeps working for now.'
                )}
              </Text>
              <Button size="xs" color="red" onClick={openPay}>
                Pay now
              </Button>
            </Group>
          </Alert>
        ) : null}
        {state === 'ended' && s.endedReason === 'unpaid' ? (
          <Alert role="note" variant="light" color="gray" icon={<IconAlertTriangle size={18} />} py="sm">
            <Text size="sm">
              This subscription ended because its invoice was not paid, and its license has expired. Start a new subscription to
              license your nodes again.
            </Text>
          </Alert>
        ) : null}
        {state === 'incomplete' ? (
          <Alert role="note" variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} py="sm">
            <Text size="sm">This subscription is waiting for its first payment to be confirmed.</Text>
          </Alert>
        ) : null}

        <SimpleGrid cols={2} spacing="md" verticalSpacing="md" maw={560}>
          <Fact label="Price">
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(s.unitAmount * s.quantity, s.currency)}</span>{' '}
            {intervalLabel(s.interval)}
          </Fact>
          {failing ? (
            <Fact label="Access until">{formatDate(failing.accessUntil)}</Fact>
          ) : (
            <Fact label={dateLabel(state, suspended)}>{end}</Fact>
          )}
        </SimpleGrid>
        <Fact label="License key">
          {s.licenseKey ? (
            <LicenseKey licenseKey={s.licenseKey} />
          ) : (
            <Text size="sm" c="dimmed">
              Issued once the first payment is confirmed
            </Text>
          )}
        </Fact>

        <Divider />
        <Stack gap="xs">
          <Title order={4} size="h6">
            Invoices
          </Title>
          <InvoicesTable subscriptionId={s.stripeId} />
        </Stack>
      </Stack>
    </Paper>
  );
}
