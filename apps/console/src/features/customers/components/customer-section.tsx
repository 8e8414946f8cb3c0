import type { ReactNode } from 'react';
import { Table, type TableThProps, VisuallyHidden } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { EmptyState, SectionCard } from '@portal/ui';
import tableClasses from '../../../components/data-table.module.css';

export interface CustomerSectionProps {
  /** The anchor a search result opens (#licenses). */
  id: string;
  icon: Icon;
  title: string;
  description: string;
  /** Shown instead of the content when the section has nothing. */
  empty: { title: string; description: string } | null;
  children?: ReactNode;
}

/** A card of the customer page, reachable by its anchor, with its own empty state. */
export function CustomerSection({ id, icon: SectionIcon, title, description, empty, children }: CustomerSectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} style={{ scrollMarginTop: 80 }}>
      <SectionCard icon={<SectionIcon size={18} stroke={1.6} />} title={title} titleId={`${id}-title`} description={description}>
        {empty ? <EmptyState bare icon={<SectionIcon />} title={empty.title} description={empty.description} /> : children}
      </SectionCard>
    </section>
  );
}

/** A column's name, or its name with its alignment and its width (px) on a laptop. */
export type Header = string | { label: string; align?: TableThProps['ta']; width?: number };

/**
 * A table inside a section: its headers, then a last narrow column for each row's menu. Columns
 * keep their widths and long values are cut (the data table's rules); on a phone each row is a
 * card, so its cells carry their column's name (`data-label`) and the menu's cell `data-menu`.
 */
export function SectionTable({
  headers,
  minWidth,
  children,
}: {
  headers: readonly Header[];
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table verticalSpacing="sm" fz="sm" className={`${tableClasses.fixed} ${tableClasses.cards}`}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) =>
              typeof h === 'string' ? (
                <Table.Th key={h}>{h}</Table.Th>
              ) : (
                <Table.Th key={h.label} ta={h.align} w={h.width}>
                  {h.label}
                </Table.Th>
              ),
            )}
            <Table.Th w={52}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
