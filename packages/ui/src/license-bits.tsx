import type { ReactNode } from 'react';
import { ActionIcon, Badge, CopyButton, Group, Pagination, Progress, Stack, Text, Tooltip, type TextProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import {
  plural,
  type License,
  formatDate,
  formatDateTime,
  formatRelative,
  expiryLevel,
  LICENSE_STATUS_BADGE as STATUS_BADGE,
  USAGE_COLOR,
  usageLevel,
} from '@portal/contract';
import classes from './license-bits.module.css';

/** A tone of text by meaning (license states, validation answers). */
export type Tone = 'ok' | 'warn' | 'danger' | 'neutral';

/** 'Showing 11–20 of 34 nodes'. */
export function pageSummary(page: number, size: number, total: number, noun: [string, string]): string {
  const word = total === 1 ? noun[0] : noun[1];
  if (total === 0) return `No ${noun[1]}`;
  const first = (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return first === 1 && last === total ? `${total} ${word}` : `Showing ${first}–${last} of ${total} ${word}`;
}

/** The last page that has rows (a page emptied by a release falls back to it). */
export const lastPage = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** Text in a status colour (by meaning), dark enough to read in both schemes. */
export function ToneText({ tone, children, ...rest }: TextProps & { tone: Tone | null; children: ReactNode }) {
  return (
    <Text {...rest} className={classes.tone} data-tone={tone ?? undefined}>
      {children}
    </Text>
  );
}

/** A badge whose colour says what it means: green good, yellow attention, red a problem, grey inactive. */
export function ToneBadge({ tone, color, children }: { tone: Tone; color: string; children: ReactNode }) {
  return (
    <Badge
      variant="light"
      color={color}
      radius="sm"
      tt="none"
      fw={600}
      className={classes.tone}
      data-tone={tone}
      // Whole or on a line of its own, never cut to 'Susp…' beside a long key.
      style={{ flexShrink: 0 }}
    >
      {children}
    </Badge>
  );
}

const STATUS_TONE: Record<License['status'], Tone> = { active: 'ok', expired: 'danger', suspended: 'neutral' };

export function LicenseStatusBadge({ status }: { status: License['status'] }) {
  const { label, color } = STATUS_BADGE[status];
  return (
    <ToneBadge tone={STATUS_TONE[status]} color={color}>
      {label}
    </ToneBadge>
  );
}

/** A small copy button with a tooltip ('Copy …' / 'Copied'). */
export function CopyIcon({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} position="top">
          <ActionIcon
            variant="subtle"
            color={copied ? 'green' : 'gray'}
            // 28 px: a tap target of at least 24 by 24 (WCAG 2.2), even beside other targets.
            size="md"
            aria-label={copied ? 'Copied' : label}
            onClick={(event) => {
              // Inside a clickable row: copying must not also open the row.
              event.stopPropagation();
              copy();
            }}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A license key in monospace with its copy button. */
export function LicenseKeyText({ licenseKey, size = 'sm' }: { licenseKey: string; size?: TextProps['size'] }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text component="span" size={size} fw={500} className={classes.key}>
        {licenseKey}
      </Text>
      <CopyIcon value={licenseKey} label="Copy license key" />
    </Group>
  );
}

/**
 * Colour of the usage bar by meaning: the accent while there is room, near the limit too (2 of 3 is
 * normal use, not a warning); yellow at the limit, where the next machine will not fit. Red is for
 * what is wrong (expired, declined, errors).
 */
/** "2 of 5" and a bar: the accent while there is room (2 of 3 is normal use), yellow at the limit. */
export function NodesUsage({
  activeNodes,
  maxNodes,
  wide = false,
}: Pick<License, 'activeNodes' | 'maxNodes'> & { wide?: boolean }) {
  const level = usageLevel(activeNodes, maxNodes);
  const percent = maxNodes > 0 ? Math.min(100, (activeNodes / maxNodes) * 100) : 100;
  const words = `${activeNodes} of ${plural(maxNodes, 'node')} in use`;
  return (
    <Stack gap={6} miw={wide ? undefined : 120} w={wide ? '100%' : undefined}>
      {wide ? (
        <Text size="sm" fw={500}>
          {words}
        </Text>
      ) : (
        <Text size="sm" fw={600} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {activeNodes} of {maxNodes}
        </Text>
      )}
      <Progress.Root
        size={wide ? 'md' : 'sm'}
        radius="xl"
        role="progressbar"
        aria-label="Nodes in use"
        aria-valuemin={0}
        aria-valuemax={maxNodes}
        aria-valuenow={activeNodes}
        aria-valuetext={words}
      >
        <Progress.Section value={percent} color={USAGE_COLOR[level]} withAria={false} />
      </Progress.Root>
      {level === 'full' ? (
        <ToneText tone="warn" size="xs" fw={500}>
          Node limit reached
        </ToneText>
      ) : null}
    </Stack>
  );
}

/**
 * Until when a license works. A license of a subscription follows it (renewed with each payment,
 * ended with the subscription), so it shows its date plainly: 'Expires in 23 days' would contradict
 * 'Renews on' in Billing. A license without a subscription says how long is left, yellow within
 * 14 days; an expired one is red.
 */
export function ExpiryText({
  license,
  now,
  underHeader = false,
}: {
  license: Pick<License, 'expiresAt' | 'status' | 'stripeId'>;
  now?: Date;
  /** In a column headed 'Valid until': the date alone, the header says the rest. */
  underHeader?: boolean;
}) {
  const level = expiryLevel(license, now);
  const relative = formatRelative(license.expiresAt, now);
  const date = formatDate(license.expiresAt);
  const renewing = level !== 'expired' && license.stripeId !== null;
  const tone: Tone | null = level === 'expired' ? 'danger' : level === 'soon' && !renewing ? 'warn' : null;
  return (
    <Tooltip label={formatDateTime(license.expiresAt)} position="top-start">
      <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
        <ToneText tone={tone} size="sm" fw={tone ? 600 : 500}>
          {level === 'expired'
            ? `Expired ${relative}`
            : renewing
              ? underHeader
                ? date
                : `Valid until ${date}`
              : `Expires ${relative}`}
        </ToneText>
        <Text size="xs" c="dimmed">
          {renewing ? 'Follows its subscription' : date}
        </Text>
      </Stack>
    </Tooltip>
  );
}

/** Under a list: how many rows are shown, and page controls when there is more than one page. */
export function ListFooter({
  page,
  size,
  total,
  noun,
  onChange,
  label,
}: {
  page: number;
  size: number;
  total: number;
  noun: [string, string];
  onChange: (page: number) => void;
  /** Names the page controls for screen readers, e.g. 'Pages of licenses'. */
  label: string;
}) {
  const pages = lastPage(total, size);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {pageSummary(page, size, total, noun)}
      </Text>
      {pages > 1 ? (
        <nav aria-label={label}>
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onChange}
            // 32 px controls: tap targets above the 24 px of WCAG 2.2 that still fit a phone's row.
            size="md"
            siblings={1}
            boundaries={1}
            getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          />
        </nav>
      ) : null}
    </Group>
  );
}
