import { Group, Skeleton, Text } from '@mantine/core';

export interface BrandLogoProps {
  /** The vendor's brand name; a placeholder is drawn while it loads. */
  name: string | undefined;
  size?: 'sm' | 'md' | 'lg';
}

const MARK = { sm: 24, md: 28, lg: 36 } as const;
const TEXT = { sm: 'md', md: 'lg', lg: 'xl' } as const;

/** The brand mark (drawn in the accent colour) and the brand name. */
export function BrandLogo({ name, size = 'md' }: BrandLogoProps) {
  const px = MARK[size];
  return (
    <Group gap={10} wrap="nowrap" style={{ color: 'var(--mantine-color-text)' }}>
      <svg width={px} height={px} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
        <path
          d="M9 11.5 16 7.5l7 4v9l-7 4-7-4zM9 11.5l7 4 7-4M16 15.5v9"
          fill="none"
          stroke="#fff"
          strokeWidth="2.2"
          strokeLinejoin="round"
        />
      </svg>
      {name ? (
        <Text component="span" fw={650} size={TEXT[size]} lh={1} style={{ letterSpacing: '-0.01em' }}>
          {name}
        </Text>
      ) : (
        <Skeleton height={16} width={120} radius="sm" aria-hidden />
      )}
    </Group>
  );
}
