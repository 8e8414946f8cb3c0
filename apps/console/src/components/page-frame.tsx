import { useEffect, type ReactNode } from 'react';
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

export interface PageFrameProps {
  title: ReactNode;
  /** One line saying what the page is for. */
  description: ReactNode;
  /** The browser tab's title; defaults to `title` when it is text. */
  documentTitle?: string;
  /** A way back up (a customer's page: back to Customers). */
  back?: { to: string; label: string };
  /** At the right of the heading: the page's buttons. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** Every console page: an optional way back, a title, a line of purpose and its actions, then the content. */
export function PageFrame({ title, description, documentTitle, back, actions, children }: PageFrameProps) {
  const tab = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    if (tab) document.title = `${tab} · Vendor console`;
  }, [tab]);
  return (
    <Stack gap="lg" maw={1240} mx="auto" w="100%">
      <Stack gap={6}>
        {back ? (
          <Anchor component={Link} to={back.to} size="sm" c="dimmed" underline="hover" w="fit-content">
            <Group gap={2} wrap="nowrap">
              <IconChevronLeft size={14} aria-hidden />
              {back.label}
            </Group>
          </Anchor>
        ) : null}
        <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Title>
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          </Stack>
          {actions ? <Group gap="sm">{actions}</Group> : null}
        </Group>
      </Stack>
      {children}
    </Stack>
  );
}
