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

/**
 * The billing page while its first answers are on the way: the same grid and card frames as the
 * page, in one piece that the page replaces at once (nothing under it moves when data arrives).
 */
export function BillingSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading billing">
      <Grid type="container" breakpoints={CONTAINER_BREAKPOINTS} gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <CardSkeleton rows={3} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CardSkeleton rows={2} />
        </Grid.Col>
      </Grid>
    </div>
  );
}
