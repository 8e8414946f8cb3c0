import { Badge, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { type ConsoleActivity, type StaffAuditEntry, formatDateTime, localizeDates } from '@portal/contract';
import { ShowMore } from '../../../components/show-more';
import { actionLabel } from '../../../lib/audit-labels';
import { SectionCard } from '@portal/ui';

function ActivityEntry({ entry }: { entry: ConsoleActivity }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="md">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm">{localizeDates(entry.summary)}</Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.createdAt)}
        </Text>
      </Stack>
      {entry.byStaff ? (
        <Badge size="sm" variant="light" color="brand" style={{ flexShrink: 0 }}>
          By staff
        </Badge>
      ) : null}
    </Group>
  );
}

function StaffEntry({ entry }: { entry: StaffAuditEntry }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {actionLabel(entry.action)}
        {entry.subject ? (
          <Text span size="sm" c="dimmed" ff="monospace">
            {' '}
            {entry.subject}
          </Text>
        ) : null}
      </Text>
      <Text size="sm">“{entry.reason}”</Text>
      <Text size="xs" c="dimmed">
        {entry.staffEmail} · {formatDateTime(entry.at)}
      </Text>
    </Stack>
  );
}

/** What happened on the account (as the customer reads it) and what staff did, with their reasons. */
export function ActivitySection({ activity, staffActions }: { activity: ConsoleActivity[]; staffActions: StaffAuditEntry[] }) {
  const count = staffActions.length ? (
    <Badge size="xs" variant="light" color="gray" circle>
      {staffActions.length}
    </Badge>
  ) : null;
  return (
    <section id="activity" aria-labelledby="activity-title" style={{ scrollMarginTop: 80 }}>
      <SectionCard
        icon={<IconActivity size={18} stroke={1.6} />}
        title="Activity"
        titleId="activity-title"
        description="The customer's activity log and the staff actions on this account"
      >
        <Tabs defaultValue="activity" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="activity">Customer activity</Tabs.Tab>
            <Tabs.Tab value="staff" rightSection={count}>
              Staff actions
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="activity" pt="md">
            {activity.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing recorded yet.
              </Text>
            ) : (
              <ShowMore items={activity} initial={8} noun="entries" render={(a) => <ActivityEntry key={a.id} entry={a} />} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="staff" pt="md">
            {staffActions.length === 0 ? (
              <Text size="sm" c="dimmed">
                No staff action on this account.
              </Text>
            ) : (
              <ShowMore items={staffActions} initial={8} noun="actions" render={(s) => <StaffEntry key={s.id} entry={s} />} />
            )}
          </Tabs.Panel>
        </Tabs>
      </SectionCard>
    </section>
  );
}
