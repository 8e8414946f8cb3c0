import { Table, Text } from '@mantine/core';
import { IconCalendarPlus, IconKey, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import type { ConsoleLicense } from '@portal/contract';
import { RowMenu } from '../../../components/row-menu';
import { useMay } from '../../../lib/permissions';
import type { PendingAction } from '../actions/action-dialog';
import { CustomerSection, SectionTable } from './customer-section';
import { ExpiryText, LicenseKeyText, NodesUsage, LicenseStatusBadge as StatusBadge } from '@portal/ui';

/** What the customer reads in the portal about the suspension (two lines; the whole of it on hover). */
function CustomerMessage({ message }: { message: string }) {
  return (
    <Text size="xs" c="dimmed" mt={4} lineClamp={2} title={message} style={{ overflowWrap: 'anywhere' }}>
      <Text span inherit fw={600}>
        Message to the customer:
      </Text>{' '}
      {message}
    </Text>
  );
}

/** The customer's licenses: key, status, node usage, expiry, where it comes from; license actions for support. */
export function LicensesSection({ licenses, onAction }: { licenses: ConsoleLicense[]; onAction: (a: PendingAction) => void }) {
  const maySuspend = useMay('suspendLicense');
  const mayResume = useMay('resumeLicense');
  const mayExtend = useMay('extendLicense');
  return (
    <CustomerSection
      id="licenses"
      icon={IconKey}
      title="Licenses"
      description="Keys, node usage and expiry"
      empty={
        licenses.length
          ? null
          : { title: 'No licenses', description: 'A license comes with each subscription, or is issued as a complimentary one.' }
      }
    >
      <SectionTable
        headers={[
          { label: 'License key', width: 310 },
          { label: 'Status', width: 110 },
          { label: 'Nodes', align: 'right', width: 150 },
          { label: 'Valid until', width: 150 },
          'Source',
        ]}
        minWidth={640}
      >
        {licenses.map((l) => {
          const params = { licenseKey: l.licenseKey };
          return (
            <Table.Tr key={l.licenseKey}>
              <Table.Td data-label="License key">
                <LicenseKeyText licenseKey={l.licenseKey} />
                {l.suspensionMessage ? <CustomerMessage message={l.suspensionMessage} /> : null}
              </Table.Td>
              <Table.Td data-label="Status">
                <StatusBadge status={l.status} />
              </Table.Td>
              <Table.Td data-label="Nodes">
                <NodesUsage activeNodes={l.activeNodes} maxNodes={l.maxNodes} />
              </Table.Td>
              <Table.Td data-label="Valid until">
                <ExpiryText license={{ ...l, stripeId: l.subscriptionId }} underHeader />
              </Table.Td>
              <Table.Td data-label="Source">
                <Text size="sm" c="dimmed">
                  {l.subscriptionId ? 'Subscription' : 'Complimentary'}
                </Text>
              </Table.Td>
              <Table.Td data-menu>
                <RowMenu
                  label={`Actions for license ${l.licenseKey}`}
                  items={[
                    {
                      label: 'Extend…',
                      icon: <IconCalendarPlus size={16} />,
                      hidden: !mayExtend,
                      onClick: () => onAction({ route: 'extendLicense', params, subject: l.licenseKey }),
                    },
                    {
                      label: 'Resume…',
                      icon: <IconPlayerPlay size={16} />,
                      hidden: !mayResume || l.status !== 'suspended',
                      onClick: () => onAction({ route: 'resumeLicense', params, subject: l.licenseKey }),
                    },
                    {
                      label: 'Suspend…',
                      icon: <IconPlayerPause size={16} />,
                      hidden: !maySuspend || l.status !== 'active',
                      danger: true,
                      onClick: () => onAction({ route: 'suspendLicense', params, subject: l.licenseKey }),
                    },
                  ]}
                />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </SectionTable>
    </CustomerSection>
  );
}
