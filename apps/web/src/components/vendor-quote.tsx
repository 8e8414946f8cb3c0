import { Stack, Text } from '@mantine/core';

/**
 * Words the vendor's staff wrote to the customer (a suspension's message), quoted under a label
 * that says whose they are. Rendered as plain text: React escapes it, and it keeps to the width of
 * its box however long its words.
 */
export function VendorQuote({ label, text }: { label: string; text: string }) {
  return (
    <Stack
      gap={2}
      component="figure"
      m={0}
      pl="sm"
      style={{ borderInlineStart: '3px solid var(--mantine-color-red-light-color)', minWidth: 0 }}
    >
      <Text component="figcaption" size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      <Text component="blockquote" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    </Stack>
  );
}
