import type { ReactNode } from 'react';
import { Paper, Table, type TableProps } from '@mantine/core';

export interface TableCardProps extends TableProps {
  /** Below this width the table scrolls sideways instead of squeezing its columns (0: never). */
  minWidth: number;
  /** The table's Table.Thead. */
  head: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** A table in a bordered card that scrolls sideways on narrow screens, as every table of the app does. */
export function TableCard({ minWidth, head, children, ...table }: TableCardProps) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table verticalSpacing="sm" {...table}>
          {head}
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
