import { Anchor, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPlugConnectedX, IconServer } from '@tabler/icons-react';
import {
  NODE_STALE_AFTER_HOURS,
  type ConsoleLicense,
  type ConsoleNode,
  nodeHealth,
  formatDate,
  formatDateTime,
  formatRelative,
} from '@portal/contract';
import { RowMenu } from '../../../components/row-menu';
import { useMay } from '../../../lib/permissions';
import type { PendingAction } from '../actions/action-dialog';
import { CustomerSection, SectionTable } from './customer-section';
import { StatusBadge, CopyIcon } from '@portal/ui';

const count = (n: number) => new Intl.NumberFormat().format(n);

/**
 * The customer's newest nodes (by activation, across their licenses, as the server reads them from
 * an index: ADR 118): which machine, since when, last seen, and its health (its license's state
 * first: a node of a suspended license is not healthy, however recent). When the customer has more
 * nodes than are shown (a reseller's thousands), the section says so, and where the rest are
 * counted and found.
 */
export function NodesSection({
  nodes,
  total,
  licenses,
  onAction,
}: {
  nodes: ConsoleNode[];
  /** Every node of the customer's licenses (each license's count of active nodes, summed). */
  total: number;
  licenses: Pick<ConsoleLicense, 'licenseKey' | 'status'>[];
  onAction: (a: PendingAction) => void;
}) {
  const mayRelease = useMay('releaseNode');
  const now = new Date();
  const statusOf = new Map(licenses.map((l) => [l.licenseKey, l.status]));
  const stale = `stale after ${NODE_STALE_AFTER_HOURS} hours without a validation`;
  const partial = total > nodes.length;
  return (
    <CustomerSection
      id="nodes"
      icon={IconServer}
      title={partial ? 'Newest nodes' : 'Nodes'}
      description={
        partial
          ? `The ${count(nodes.length)} most recently activated of ${count(total)} nodes; ${stale}`
          : `Machines running the product, newest first; ${stale}`
      }
      empty={
        nodes.length ? null : { title: 'No nodes', description: 'No machine has been activated on this customer’s licenses yet.' }
      }
    >
      <SectionTable
        headers={[
          'Hostname',
          { label: 'Fingerprint', width: 170 },
          { label: 'License', width: 130 },
          { label: 'Activated', width: 120 },
          { label: 'Last seen', width: 210 },
        ]}
        minWidth={840}
      >
        {nodes.map((n) => {
          const health = nodeHealth(n, statusOf.get(n.licenseKey), now);
          const name = n.hostname ?? n.fingerprint;
          return (
            <Table.Tr key={n.id}>
              <Table.Td data-label="Hostname">
                {/* A long FQDN is cut, not allowed to push the other columns out of the card. */}
                {n.hostname ? (
                  <Text size="sm" fw={500} truncate title={n.hostname}>
                    {n.hostname}
                  </Text>
                ) : (
                  <Text span c="dimmed" size="sm">
                    Unnamed
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-label="Fingerprint">
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" ff="monospace" truncate title={n.fingerprint} style={{ minWidth: 0 }}>
                    {n.fingerprint}
                  </Text>
                  <CopyIcon value={n.fingerprint} label="Copy fingerprint" />
                </Group>
              </Table.Td>
              <Table.Td ff="monospace" data-label="License">
                {n.licenseKey.slice(0, 11)}…
              </Table.Td>
              <Table.Td data-label="Activated">{formatDate(n.activatedAt)}</Table.Td>
              <Table.Td data-label="Last seen">
                <Group gap="xs" wrap="nowrap">
                  <Tooltip label={formatDateTime(n.lastSeenAt)}>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatRelative(n.lastSeenAt, now)}
                    </Text>
                  </Tooltip>
                  <StatusBadge tone={health.tone} size="sm">
                    {health.label}
                  </StatusBadge>
                </Group>
              </Table.Td>
              <Table.Td data-menu>
                <RowMenu
                  label={`Actions for node ${name}`}
                  items={[
                    {
                      label: 'Release node…',
                      icon: <IconPlugConnectedX size={16} />,
                      hidden: !mayRelease,
                      danger: true,
                      onClick: () =>
                        onAction({
                          route: 'releaseNode',
                          params: { licenseKey: n.licenseKey, nodeId: n.id },
                          subject: name,
                        }),
                    },
                  ]}
                />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </SectionTable>
      {partial && (
        <Text size="sm" c="dimmed" mt="sm">
          Showing {count(nodes.length)} of {count(total)} nodes.{' '}
          <Anchor href="#licenses" size="sm">
            Each license’s nodes are counted under Licenses
          </Anchor>
          ; find any other machine by its hostname or fingerprint in search.
        </Text>
      )}
    </CustomerSection>
  );
}
