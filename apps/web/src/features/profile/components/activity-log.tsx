import { useEffect, useState, type ReactNode } from 'react';
import { Group, Pagination, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  IconApi,
  IconCreditCard,
  IconHistory,
  IconKey,
  IconLogin,
  IconPoint,
  IconServer,
  IconUserCheck,
  IconUserEdit,
  type Icon,
} from '@tabler/icons-react';
import { type AuditEvent, formatDateTime, formatRelative, localizeDates } from '@portal/contract';
import { useListActivityQuery } from '../api';
import { SectionCard, SkeletonRows, EmptyState, ErrorDisplay } from '@portal/ui';

export const ACTIVITY_PAGE_SIZE = 10;

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** An icon for the kind of event; the summary says the rest. */
function iconOf(action: string): Icon {
  if (action === 'signed_in' || action.includes('identity')) return IconLogin;
  if (action === 'profile_updated') return IconUserEdit;
  if (action.startsWith('api_token')) return IconApi;
  if (action === 'onboarded') return IconUserCheck;
  if (action.startsWith('node') || action.includes('node')) return IconServer;
  if (action.startsWith('license')) return IconKey;
  if (action.includes('subscription') || action.includes('payment') || action.includes('invoice') || action.includes('card'))
    return IconCreditCard;
  return IconPoint;
}

/**
 * '3 minutes ago' for a past moment; 'now' for one the page's clock has not reached yet (an entry
 * written after the clock's last tick, or a server clock a little ahead): never 'in 5 seconds'.
 */
export function sinceText(iso: string, now: Date): string {
  const at = new Date(iso);
  return formatRelative(at, at > now ? at : now);
}

/** The current time, updated every minute: keeps "3 minutes ago" true. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(id);
  }, []);
  return now;
}

/** The activity log: when and what, newest first, a page at a time. */
export function ActivityLog() {
  const [page, setPage] = useState(1);
  const { data, isLoading, isFetching, error, refetch } = useListActivityQuery({ page, size: ACTIVITY_PAGE_SIZE });
  const now = useNow();
  const pages = data ? Math.max(1, Math.ceil(data.total / ACTIVITY_PAGE_SIZE)) : 1;
  const first = data && data.total > 0 ? (data.page - 1) * ACTIVITY_PAGE_SIZE + 1 : 0;
  const last = data ? first + data.items.length - 1 : 0;

  return (
    <SectionCard
      icon={<IconHistory size={18} stroke={1.7} />}
      title="Activity"
      titleId="activity-title"
      description="Sign-ins and changes to your account, newest first."
    >
      <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />

      {isLoading ? (
        <ActivitySkeleton />
      ) : data && data.total === 0 ? (
        <EmptyState
          bare
          icon={<IconHistory size={28} stroke={1.6} />}
          title="No activity yet"
          description="Sign-ins, profile changes, purchases and license changes will be listed here as they happen."
        />
      ) : data ? (
        <>
          {/* No scroll container: the summary wraps at word breaks, so the table fits a phone as it is. */}
          <Table
            verticalSpacing="sm"
            aria-labelledby="activity-title"
            aria-busy={isFetching}
            style={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 120ms ease' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w="1%" style={{ whiteSpace: 'nowrap' }}>
                  When
                </Table.Th>
                <Table.Th scope="col">What</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((event) => (
                <ActivityRow key={event.id} event={event} now={now} />
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {first}–{last} of {data.total}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={page}
                onChange={setPage}
                // 32 px controls: tap targets above the 24 px of WCAG 2.2 that still fit a phone's row.
                size="md"
                aria-label="Activity pages"
                getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
              />
            ) : null}
          </Group>
        </>
      ) : null}
    </SectionCard>
  );
}

function ActivityRow({ event, now }: { event: AuditEvent; now: Date }) {
  const Icon = iconOf(event.action);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Tooltip label={formatDateTime(event.createdAt)}>
          <Text component="time" dateTime={event.createdAt} size="sm" tabIndex={0}>
            {sinceText(event.createdAt, now)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Icon size={16} stroke={1.6} aria-hidden style={{ flexShrink: 0, opacity: 0.7, marginTop: 2 }} />
          {/* Dates inside the server's sentence read in the same style and locale as every other date. */}
          <Text size="sm" style={{ minWidth: 0, overflowWrap: 'break-word' }}>
            {breakableNames(localizeDates(event.summary))}
          </Text>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A hostname ('pve-01.cluster.example.com') may wrap after a dot followed by a letter, as well as
 * after its hyphens, so a phone does not cut it into arbitrary fragments; amounts ('$75.00') keep
 * their dot.
 */
export function breakableNames(text: string): ReactNode[] {
  return text.split(/(?<=\.)(?=[A-Za-z])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

function ActivitySkeleton() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading activity">
      <SkeletonRows count={5} height={14} />
    </Stack>
  );
}
