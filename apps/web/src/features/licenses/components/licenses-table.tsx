import type { Ref } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Table, VisuallyHidden } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import type { License } from '@portal/contract';
import classes from './licenses.module.css';
import { TableCard, ExpiryText, LicenseKeyText, NodesUsage, LicenseStatusBadge as StatusBadge } from '@portal/ui';

export interface LicensesTableProps {
  licenses: License[];
  /** The key of the license the user came for (license.highlight), marked and scrolled to. */
  highlight: string | null;
  /** Receives the element of the highlighted license, so the page can scroll to it. */
  highlightRef?: Ref<HTMLElement>;
  onOpen: (licenseKey: string) => void;
  /** Cards instead of a table on phones. */
  compact: boolean;
}

const openLabel = (key: string) => `Open license ${key}`;

/** The customer's licenses: key, status, nodes used of allowed, expiry; a row (or Open) opens one. */
export function LicensesTable({ licenses, highlight, highlightRef, onOpen, compact }: LicensesTableProps) {
  if (compact) {
    return (
      <Stack gap="sm" aria-label="Licenses" role="list">
        {licenses.map((license) => {
          const marked = license.licenseKey === highlight;
          return (
            <Paper
              key={license.licenseKey}
              role="listitem"
              withBorder
              p="md"
              className={classes.card}
              mod={{ highlighted: marked }}
              aria-current={marked ? 'true' : undefined}
              ref={marked ? (highlightRef as Ref<HTMLDivElement>) : undefined}
            >
              <Stack gap="sm">
                {/* The badge goes under the key when both do not fit, never cut to 'Susp…'. */}
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <LicenseKeyText licenseKey={license.licenseKey} size="xs" />
                  <StatusBadge status={license.status} />
                </Group>
                <NodesUsage activeNodes={license.activeNodes} maxNodes={license.maxNodes} wide />
                <Group justify="space-between" align="flex-end" gap="xs" wrap="nowrap">
                  <ExpiryText license={license} />
                  <Button
                    variant="light"
                    size="xs"
                    rightSection={<IconChevronRight size={14} />}
                    aria-label={openLabel(license.licenseKey)}
                    onClick={() => onOpen(license.licenseKey)}
                  >
                    Open
                  </Button>
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    );
  }

  return (
    <TableCard minWidth={760} highlightOnHover horizontalSpacing="md" aria-label="Licenses" head={<LicensesTableHead />}>
      {licenses.map((license) => {
        const marked = license.licenseKey === highlight;
        return (
          <Table.Tr
            key={license.licenseKey}
            className={marked ? `${classes.row} ${classes.highlighted}` : classes.row}
            aria-current={marked ? 'true' : undefined}
            ref={marked ? (highlightRef as Ref<HTMLTableRowElement>) : undefined}
            // The Open button is the keyboard way in; the whole row is a larger target for the mouse.
            onClick={() => onOpen(license.licenseKey)}
          >
            <Table.Td>
              <LicenseKeyText licenseKey={license.licenseKey} />
            </Table.Td>
            <Table.Td>
              <StatusBadge status={license.status} />
            </Table.Td>
            <Table.Td>
              <NodesUsage activeNodes={license.activeNodes} maxNodes={license.maxNodes} />
            </Table.Td>
            <Table.Td>
              <ExpiryText license={license} underHeader />
            </Table.Td>
            <Table.Td ta="right">
              <Button
                variant="subtle"
                size="xs"
                rightSection={<IconChevronRight size={14} />}
                aria-label={openLabel(license.licenseKey)}
                onClick={(event) => {
                  event.stopPropagation();
                  onOpen(license.licenseKey);
                }}
              >
                Open
              </Button>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </TableCard>
  );
}

/** The shape of the list while the first page loads: the same frame, header and row height as the table (cards on phones). */
export function LicensesTableSkeleton({ rows = 3, compact = false }: { rows?: number; compact?: boolean }) {
  if (compact) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading licenses">
        {Array.from({ length: rows }, (_, i) => (
          <Paper key={i} withBorder p="md">
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap">
                <Skeleton height={16} width="65%" radius="sm" />
                <Skeleton height={20} width={56} radius="sm" />
              </Group>
              <Skeleton height={14} width="40%" radius="sm" />
              <Skeleton height={8} radius="xl" />
              <Group justify="space-between" wrap="nowrap">
                <Skeleton height={32} width="35%" radius="sm" />
                <Skeleton height={30} width={72} radius="md" />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Paper withBorder aria-busy="true" aria-label="Loading licenses">
      <Table verticalSpacing="sm" horizontalSpacing="md">
        <LicensesTableHead />
        <Table.Tbody>
          {Array.from({ length: rows }, (_, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                <Skeleton height={16} width={260} radius="sm" />
              </Table.Td>
              <Table.Td>
                <Skeleton height={20} width={56} radius="sm" />
              </Table.Td>
              <Table.Td>
                <Stack gap={6} align="flex-end">
                  <Skeleton height={14} width={40} radius="sm" />
                  <Skeleton height={6} width={120} radius="xl" />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Stack gap={6}>
                  <Skeleton height={14} width={120} radius="sm" />
                  <Skeleton height={10} width={90} radius="sm" />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Skeleton height={26} width={64} radius="md" ml="auto" />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The table's header row, shared by the table and its loading skeleton so both have one shape. */
function LicensesTableHead() {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>License key</Table.Th>
        <Table.Th>Status</Table.Th>
        <Table.Th ta="right">Nodes in use</Table.Th>
        <Table.Th>Valid until</Table.Th>
        <Table.Th>
          <VisuallyHidden>Actions</VisuallyHidden>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}
