import { Grid, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { StatTileSkeleton } from '../../../components/stat-tile';
import { SkeletonHeading, SkeletonRows } from '@portal/ui';

function CardSkeleton({ rows }: { rows: number }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <SkeletonHeading size="sm" />
        <SkeletonRows count={rows} height={14} />
      </Stack>
    </Paper>
  );
}

/** The customer page's layout while it loads: title, figures, then the same two columns of cards. */
export function CustomerSkeleton() {
  return (
    <Stack gap="lg" maw={1240} mx="auto" w="100%" aria-busy="true" aria-label="Loading the customer">
      <Stack gap={8}>
        <Skeleton height={12} width={90} />
        <Skeleton height={28} width={260} />
        <Skeleton height={14} width={320} maw="80%" />
      </Stack>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md">
        {Array.from({ length: 5 }, (_, i) => (
          <StatTileSkeleton key={i} />
        ))}
      </SimpleGrid>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="lg">
            <CardSkeleton rows={4} />
            <CardSkeleton rows={3} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }} order={{ base: -1, xl: 0 }}>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 1 }} spacing="lg">
            <CardSkeleton rows={6} />
            <CardSkeleton rows={3} />
          </SimpleGrid>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
