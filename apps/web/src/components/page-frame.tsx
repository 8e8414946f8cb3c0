import { useEffect, type ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { useAppDispatch } from '../lib/state/hooks';
import { setActivePage } from '../lib/state/menu-slice';

/**
 * Marks the page on screen in `menu.activePage`, so the side menu highlights its entry.
 * PageFrame calls it; a page that does not use PageFrame calls it directly.
 */
export function useActivePage(page: string): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(setActivePage(page));
  }, [dispatch, page]);
}

export interface PageFrameProps {
  /** The heading of the page. */
  title: ReactNode;
  /** One line saying what the page is for. */
  description: ReactNode;
  /**
   * The menu entry this page belongs to ('Home', 'Licenses', 'Support', 'Download ISO', 'Billing',
   * 'Profile'). Defaults to the title when the title is a string.
   */
  page?: string;
  /** Actions at the right of the heading (buttons). */
  actions?: ReactNode;
  children?: ReactNode;
}

/** Each page: a title, a one-line description, then its cards or tables. */
export function PageFrame({ title, description, page, actions, children }: PageFrameProps) {
  const activePage = page ?? (typeof title === 'string' ? title : '');
  useActivePage(activePage);
  return (
    <Stack gap="xl" maw={1120} mx="auto" w="100%">
      <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed">{description}</Text>
        </Stack>
        {actions ? <Group gap="sm">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}
