import type { ReactNode } from 'react';
import { Button, Group, Stack, Text, ThemeIcon, Title, type TitleOrder } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';

export interface CardHeaderProps {
  /** A Tabler icon at size 18, e.g. <IconKey size={18} stroke={1.6} />. */
  icon?: ReactNode;
  title: ReactNode;
  /** One line under the title saying what the card holds. */
  description?: ReactNode;
  /** At the right: a CardHeaderLink or a small button. */
  action?: ReactNode;
  /** The heading's id, for a section's aria-labelledby. */
  titleId?: string;
  /** Heading level: 2 on a page, 3 inside a section that has its own h2. */
  order?: TitleOrder;
}

/**
 * The header of every card in the app: a 32 px tinted icon tile, the title (h4 size), an optional
 * dimmed line beneath, and an optional action at the right. One pattern, so cards read alike.
 */
export function CardHeader({ icon, title, description, action, titleId, order = 2 }: CardHeaderProps) {
  return (
    // The action moves under the title when both do not fit on one line (a phone, a long description).
    // A description keeps room to read (15 rem): beside a badge on a phone it was squeezed into five lines.
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap" data-card-header="">
      <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 0', minWidth: description ? '15rem' : 180 }}>
        {icon ? (
          <ThemeIcon variant="light" radius="md" size={32} style={{ flexShrink: 0 }} aria-hidden>
            {icon}
          </ThemeIcon>
        ) : null}
        <Stack gap={2} style={{ minWidth: 0 }} justify="center" mih={32}>
          <Title order={order} size="h4" lh={1.3} id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
      </Group>
      {action ? <div style={{ flexShrink: 0, marginLeft: 'auto' }}>{action}</div> : null}
    </Group>
  );
}

/** The action of a card header that goes to another page: a quiet button, not an underlined link. */
export function CardHeaderLink({ to, children, label }: { to: string; children: ReactNode; label?: string }) {
  return (
    <Button
      component={Link}
      to={to}
      variant="subtle"
      size="compact-sm"
      rightSection={<IconArrowRight size={14} />}
      aria-label={label}
    >
      {children}
    </Button>
  );
}
