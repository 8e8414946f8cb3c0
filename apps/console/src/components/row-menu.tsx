import type { ReactNode } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';

export interface RowMenuItem {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
  /** Hidden (the role may not, or the state does not allow it). */
  hidden?: boolean;
}

/** The "…" menu of a row or a card: its actions, or nothing at all when none is allowed. */
export function RowMenu({ label, items }: { label: string; items: readonly RowMenuItem[] }) {
  const shown = items.filter((i) => !i.hidden);
  if (shown.length === 0) return null;
  return (
    <Menu position="bottom-end" shadow="md" width={230} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} stroke={1.7} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {shown.map((item) => (
          <Menu.Item key={item.label} leftSection={item.icon} color={item.danger ? 'red' : undefined} onClick={item.onClick}>
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
