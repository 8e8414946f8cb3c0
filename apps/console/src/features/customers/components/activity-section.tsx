import { Badge, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import type { ConsoleActivity, StaffAuditEntry } from '@portal/contract';
import { SectionCard } from '@web/components/section-card';
import { formatDateTime, localizeDates } from '@web/lib/format';
import { actionLabel } from '../../../lib/audit-labels';

/** What happened on the account (as the customer reads it) and what staff did, with their reasons. */
export function ActivitySection({ activity, staffActions }: { activity: ConsoleActivity[]; staffActions: StaffAuditEntry[] }) {
  return (
    <SectionCard
      icon={<IconActivity size={18} stroke={1.6} />}
      title="Activity"
      description="The customer's activity log and the staff actions on this account"
    >
      <Tabs defaultValue="activity" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="activity">Customer activity</Tabs.Tab>
          <Tabs.Tab
            value="staff"
            rightSection={
              staffActions.length ? (
                <Badge size="xs" variant="light" color="gray" circle>
                  {staffActions.length}
                </Badge>
              ) : null
            }
          >
            Staff actions
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="activity" pt="md">
          {activity.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nothing recorded yet.
            </Text>
          ) : (
            <Stack gap="sm">
              {activity.map((a) => (
                <Group key={a.id} justify="space-between" wrap="nowrap" align="flex-start" gap="md">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text size="sm">{localizeDates(a.summary)}</Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(a.createdAt)}
                    </Text>
                  </Stack>
                  {a.byStaff ? (
                    <Badge size="sm" variant="light" color="brand" style={{ flexShrink: 0 }}>
                      By staff
                    </Badge>
                  ) : null}
                </Group>
              ))}
            </Stack>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="staff" pt="md">
          {staffActions.length === 0 ? (
            <Text size="sm" c="dimmed">
              No staff action on this account.
            </Text>
          ) : (
            <Stack gap="sm">
              {staffActions.map((s) => (
                <Stack key={s.id} gap={2}>
                  <Text size="sm" fw={500}>
                    {actionLabel(s.action)}
                    {s.subject ? (
                      <Text span size="sm" c="dimmed" ff="monospace">
                        {' '}
                        {s.subject}
                      </Text>
                    ) : null}
                  </Text>
                  <Text size="sm">“{s.reason}”</Text>
                  <Text size="xs" c="dimmed">
                    {s.staffEmail} · {formatDateTime(s.at)}
                  </Text>
                </Stack>
              ))}
            </Stack>
          )}
        </Tabs.Panel>
      </Tabs>
    </SectionCard>
  );
}
