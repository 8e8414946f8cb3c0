import { useId, type ReactNode } from 'react';
import { Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { CardHeader, CardHeaderLink, ErrorDisplay } from '@portal/ui';

/** One read of another feature, as the page that composes the dashboard hands it over. */
export interface Loadable<T> {
  data: T | undefined;
  isLoading: boolean;
  /** True while a read (the first or a retry) is under way. */
  isFetching?: boolean;
  error: unknown;
  /** Fetches again (RTK Query's `refetch`): the error display's Retry. */
  refetch?: () => unknown;
}

export interface DashboardCardProps {
  icon: ReactNode;
  title: string;
  link: { label: string; to: string };
  children: ReactNode;
  /** Pinned to the bottom of the card, so cards side by side end on one line whatever their content. */
  footer?: ReactNode;
}

/** A dashboard card: the shared card header (with a link to the page behind it), its content, a footer. */
export function DashboardCard({ icon, title, link, children, footer }: DashboardCardProps) {
  const titleId = useId();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId} h="100%">
      <Stack gap="md" h="100%">
        <CardHeader
          icon={icon}
          title={title}
          titleId={titleId}
          action={<CardHeaderLink to={link.to}>{link.label}</CardHeaderLink>}
        />
        {children}
        {footer ? <div style={{ marginTop: 'auto' }}>{footer}</div> : null}
      </Stack>
    </Paper>
  );
}

/** The data of a card, its skeleton while loading, or the error with a Retry. */
export function LoadableBody<T>({
  read,
  label,
  children,
}: {
  read: Loadable<T>;
  /** Names the skeleton for screen readers: 'Loading …'. */
  label: string;
  children: (data: T) => ReactNode;
}) {
  if (read.data !== undefined) return <>{children(read.data)}</>;
  if (read.isLoading) return <CardSkeleton label={label} />;
  return <ErrorDisplay error={read.error} onRetry={read.refetch} retrying={read.isFetching} />;
}

export function CardSkeleton({ label }: { label: string }) {
  return (
    <Stack gap={10} aria-busy="true" aria-label={label}>
      <Skeleton height={28} width="40%" />
      <Skeleton height={12} width="80%" />
      <Skeleton height={8} />
    </Stack>
  );
}

/** The lead figure of a card ('2 of 3', a date) with a small label above it. */
export function Figure({ label, value, after }: { label: string; value: ReactNode; after?: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Group gap={8} align="baseline" wrap="wrap">
        <Text fz={28} fw={650} lh={1.15} style={{ fontVariantNumeric: 'tabular-nums', letterSpacing: '-0.01em' }}>
          {value}
        </Text>
        {after}
      </Group>
    </Stack>
  );
}
