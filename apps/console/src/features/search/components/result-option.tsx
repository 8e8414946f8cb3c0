import { Badge, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileInvoice, IconKey, IconRepeat, IconServer, IconUser, type Icon } from '@tabler/icons-react';
import type { SearchResult, SearchResultKind } from '@portal/contract';
import { resultLines } from '../search-groups';

const ICON: Record<SearchResultKind, Icon> = {
  customer: IconUser,
  license: IconKey,
  node: IconServer,
  subscription: IconRepeat,
  invoice: IconFileInvoice,
};

/** Identifiers are read character by character: monospace. */
const MONO: Record<SearchResultKind, boolean> = {
  customer: false,
  license: true,
  node: true,
  subscription: true,
  invoice: true,
};

/** One search result: what matched, and whose it is. */
export function ResultOption({ result }: { result: SearchResult }) {
  const Kind = ICON[result.kind];
  const { title, subtitle } = resultLines(result);
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon variant="light" color="gray" size={28} radius="md" aria-hidden>
        <Kind size={16} stroke={1.7} />
      </ThemeIcon>
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" fw={500} ff={MONO[result.kind] ? 'monospace' : undefined} truncate>
          {title}
        </Text>
        {subtitle ? (
          // The option's own colour, lighter: readable on the selected row's blue as on white
          // (the theme's dimmed grey was dark blue on blue there).
          <Text size="xs" c="inherit" opacity={0.85} truncate>
            {subtitle}
          </Text>
        ) : null}
      </Stack>
      {result.match === 'exact' ? (
        <Badge size="xs" variant="light" color="teal">
          Exact
        </Badge>
      ) : null}
    </Group>
  );
}
