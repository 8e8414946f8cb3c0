import { useEffect, useRef, useState } from 'react';
import { Combobox, Group, Kbd, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue, useWindowEvent } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { CONSOLE_SEARCH_MIN_LENGTH } from '@portal/contract';
import { useNavigate } from 'react-router';
import { useSearchQuery } from '../api';
import { groupResults, resultPath } from '../search-groups';
import { ResultOption } from './result-option';
import { errorMessage } from '@portal/ui';

/** Typing pauses this long before the search is sent: one request per pause, not per key. */
export const SEARCH_DEBOUNCE_MS = 200;

/**
 * The one search box: e-mail, name, company, license key (or a part), node fingerprint or
 * hostname, subscription or invoice number. Answers as you type, grouped by kind; arrows move,
 * Enter opens, Escape closes; "/" anywhere puts the cursor here.
 */
export function SearchBox({ compact = false }: { compact?: boolean }) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [debounced] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const ready = debounced.length >= CONSOLE_SEARCH_MIN_LENGTH;
  const { data, isFetching, error } = useSearchQuery(debounced, { skip: !ready });
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const groups = ready && data ? groupResults(data.items) : [];
  const settled = ready && !isFetching && debounced === value.trim();

  // New results: the first one is the one Enter opens.
  useEffect(() => {
    if (groups.length > 0) combobox.selectFirstOption();
    // Only when the answer changes.
  }, [data]);

  useWindowEvent('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    const typing = target?.closest('input, textarea, select, [contenteditable="true"]');
    if (event.key === '/' && !typing && !event.metaKey && !event.ctrlKey) {
      event.preventDefault();
      input.current?.focus();
    }
  });

  const open = (key: string) => {
    const result = data?.items[Number(key)];
    if (!result) return;
    combobox.closeDropdown();
    setValue('');
    input.current?.blur();
    void navigate(resultPath(result));
  };

  const hint = value.trim().length < CONSOLE_SEARCH_MIN_LENGTH;
  return (
    <Combobox store={combobox} onOptionSubmit={open} withinPortal position="bottom-start" shadow="lg" radius="md">
      <Combobox.Target>
        <TextInput
          ref={input}
          type="search"
          aria-label="Search customers, licenses, nodes, subscriptions and invoices"
          placeholder={compact ? 'Search' : 'Search e-mail, name, license key, hostname, invoice…'}
          leftSection={<IconSearch size={16} stroke={1.8} />}
          rightSection={isFetching ? <Loader size={14} /> : compact ? null : <Kbd size="xs">/</Kbd>}
          rightSectionPointerEvents="none"
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          autoComplete="off"
          spellCheck={false}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={value.trim() === ''} miw={320}>
        <Combobox.Options mah={420} style={{ overflowY: 'auto' }} aria-label="Search results">
          {hint ? (
            <Combobox.Empty>Type at least {CONSOLE_SEARCH_MIN_LENGTH} characters</Combobox.Empty>
          ) : error ? (
            <Combobox.Empty>
              <Text size="sm" c="red">
                {errorMessage(error)}
              </Text>
            </Combobox.Empty>
          ) : (
            groups.map((group) => (
              <Combobox.Group key={group.kind} label={group.label}>
                {group.items.map((item) => (
                  <Combobox.Option key={item.key} value={item.key}>
                    <ResultOption result={item} />
                  </Combobox.Option>
                ))}
              </Combobox.Group>
            ))
          )}
          {!hint && !error && data?.more && groups.length > 0 ? (
            <Text size="xs" c="dimmed" px="sm" py={6}>
              More match than shown: type more of the e-mail, name, key or number to narrow the search.
            </Text>
          ) : null}
          {!hint && !error && settled && groups.length === 0 ? (
            <Combobox.Empty>No customer, license, node, subscription or invoice matches “{value.trim()}”</Combobox.Empty>
          ) : null}
        </Combobox.Options>
        {/* Keys to press mean nothing on a phone's touch screen: no hints in the compact (phone) bar. */}
        {groups.length > 0 && !compact ? (
          <Combobox.Footer>
            <Group gap="md" justify="center">
              <Text size="xs" c="dimmed">
                <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
              </Text>
              <Text size="xs" c="dimmed">
                <Kbd size="xs">Enter</Kbd> to open
              </Text>
              <Text size="xs" c="dimmed">
                <Kbd size="xs">Esc</Kbd> to close
              </Text>
            </Group>
          </Combobox.Footer>
        ) : null}
      </Combobox.Dropdown>
    </Combobox>
  );
}
