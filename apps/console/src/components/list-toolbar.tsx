import { useEffect, useState, type ReactNode } from 'react';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconFilter } from '@tabler/icons-react';
import type { ListParams } from '../lib/list-params';

/** Filter typing settles this long before the list is asked again. */
const FILTER_DEBOUNCE_MS = 300;

export interface ListToolbarProps {
  list: ListParams;
  /** The text filter's placeholder ('Filter by e-mail or name'). */
  placeholder: string;
  /** The list endpoint's path, for the CSV download of every row that matches. */
  csvPath: string;
  /** The list's own filters (FilterSelect). */
  children?: ReactNode;
}

/** Above every list: a text filter, the list's filters, and Export CSV. */
export function ListToolbar({ list, placeholder, csvPath, children }: ListToolbarProps) {
  const [text, setText] = useState(list.get('q'));
  const [debounced] = useDebouncedValue(text.trim(), FILTER_DEBOUNCE_MS);
  useEffect(() => {
    if (debounced !== list.get('q')) list.set({ q: debounced });
    // Only when the typed filter settles.
  }, [debounced]);

  return (
    <Group justify="space-between" gap="sm" wrap="wrap" align="flex-start">
      <Group gap="sm" wrap="wrap" style={{ flex: '1 1 480px' }}>
        <TextInput
          aria-label="Filter"
          placeholder={placeholder}
          leftSection={<IconFilter size={16} stroke={1.7} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
          maw={{ base: '100%', xs: 320 }}
        />
        {children}
      </Group>
      <Button component="a" href={list.csvHref(csvPath)} download variant="default" leftSection={<IconDownload size={16} />}>
        Export CSV
      </Button>
    </Group>
  );
}

export interface FilterSelectProps {
  list: ListParams;
  /** The query parameter it sets. */
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** Its width from the smallest screens up (160 px unless its choices are longer). */
  width?: number;
}

/** One of a list's filters: 'All' or one value, kept in the address. */
export function FilterSelect({ list, name, label, options, width = 160 }: FilterSelectProps) {
  return (
    <Select
      aria-label={label}
      placeholder={`${label}: all`}
      data={options.map((o) => ({ value: o.value, label: `${label}: ${o.label}` }))}
      value={list.get(name) || null}
      onChange={(value) => list.set({ [name]: value })}
      clearable
      allowDeselect
      comboboxProps={{ withinPortal: true }}
      w={{ base: '100%', xs: width }}
    />
  );
}
