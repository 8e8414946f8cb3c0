import { Group, Paper, Skeleton, Stack } from '@mantine/core';

/** What a page looks like while its code loads: a title, a line, and a card. */
export function PageSkeleton() {
  return (
    <Stack gap="xl" maw={1240} mx="auto" w="100%" aria-busy="true" aria-label="Loading the page">
      <Stack gap={8}>
        <Skeleton height={28} width={220} />
        <Skeleton height={14} width={360} maw="80%" />
      </Stack>
      <Paper withBorder p="xl">
        <Stack gap="md">
          {Array.from({ length: 6 }, (_, i) => (
            <Group key={i} gap="md" wrap="nowrap">
              <Skeleton height={14} width="30%" />
              <Skeleton height={14} style={{ flex: 1 }} />
            </Group>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
