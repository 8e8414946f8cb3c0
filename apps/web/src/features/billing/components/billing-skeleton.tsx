import { Grid, Group, Paper, Skeleton, Stack } from '@mantine/core';

export const CONTAINER_BREAKPOINTS = { xs: '30em', sm: '36em', md: '44em', lg: '60em', xl: '75em' };

/** `count` items of a card (a saved card, a subscription line): a tile and two lines. */
export function ItemSkeletons({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <Group key={i} gap="sm" wrap="nowrap">
      <Skeleton height={40} width={40} radius="md" />
      <Stack gap={6} style={{ flex: 1 }}>
        <Skeleton height={12} width="55%" />
        <Skeleton height={10} width="30%" />
      </Stack>
    </Group>
  ));
}

function CardSkeleton({ rows }: { rows: number }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Stack gap={8} style={{ flex: 1 }}>
            <Skeleton height={18} width="45%" />
            <Skeleton height={12} width="75%" />
          </Stack>
          <Skeleton height={30} width={96} radius="md" />
        </Group>
        <ItemSkeletons count={rows} />
      </Stack>
    </Paper>
  );
}

/** A subscription card's frame: its title and badge, the price and date, the license key, a few invoices. */
function SubscriptionSkeleton() {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} data-testid="subscription-skeleton">
      <Stack gap="md">
        <Stack gap={8}>
          <Group gap="xs" wrap="nowrap">
            <Skeleton height={22} width={140} />
            <Skeleton height={20} width={64} radius="sm" />
          </Group>
          <Skeleton height={12} width={120} />
        </Stack>
        <Group gap="xl" wrap="nowrap">
          <Stack gap={6} style={{ flex: 1, maxWidth: 260 }}>
            <Skeleton height={10} width={50} />
            <Skeleton height={14} width="70%" />
          </Stack>
          <Stack gap={6} style={{ flex: 1, maxWidth: 260 }}>
            <Skeleton height={10} width={70} />
            <Skeleton height={14} width="60%" />
          </Stack>
        </Group>
        <Stack gap={6}>
          <Skeleton height={10} width={80} />
          <Skeleton height={14} width={260} maw="100%" />
        </Stack>
        <Stack gap="sm">
          <Skeleton height={12} width={70} />
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={14} />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

export interface BillingSkeletonProps {
  /** How many subscription cards the page lists above its grid (a subscriber's page). */
  subscriptions: number;
  /** How many ended subscriptions a customer without a running one sees under the grid. */
  earlier?: number;
}

/**
 * The billing page while its first answers are on the way, in the page's own shape: a
 * subscriber's subscriptions full width above the grid of checkout and cards, ended ones of a
 * former customer under it. It is drawn once the subscriptions are known (the shape depends on
 * them), the page replaces it at once, and nothing moves when data arrives.
 */
export function BillingSkeleton({ subscriptions: above, earlier = 0 }: BillingSkeletonProps) {
  return (
    // The page's own gap between its parts (PageFrame's).
    <Stack gap="xl" aria-busy="true" aria-label="Loading billing">
      {above > 0 ? (
        <Stack gap="lg">
          <Skeleton height={22} width={130} />
          {Array.from({ length: above }, (_, i) => (
            <SubscriptionSkeleton key={i} />
          ))}
        </Stack>
      ) : null}
      <Grid type="container" breakpoints={CONTAINER_BREAKPOINTS} gap="lg" align="flex-start" data-testid="billing-grid-skeleton">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <CardSkeleton rows={3} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CardSkeleton rows={2} />
        </Grid.Col>
      </Grid>
      {earlier > 0 ? (
        <Stack gap="lg">
          <Skeleton height={22} width={190} />
          {Array.from({ length: earlier }, (_, i) => (
            <SubscriptionSkeleton key={i} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
