import type { ReactNode } from 'react';
import { Table, type TableThProps, VisuallyHidden } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { EmptyState, SectionCard } from '@portal/ui';

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

export type Header = string | { label: string; align: TableThProps['ta'] };

/** A table inside a section: its headers, then a last narrow column for each row's menu. */
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
      <Table verticalSpacing="sm" fz="sm">
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) =>
              typeof h === 'string' ? (
                <Table.Th key={h}>{h}</Table.Th>
              ) : (
                <Table.Th key={h.label} ta={h.align}>
                  {h.label}
                </Table.Th>
              ),
            )}
            <Table.Th w={40}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
