import { ThemeIcon } from '@mantine/core';
import { IconBrandMastercard, IconBrandVisa, IconCreditCard, type Icon } from '@tabler/icons-react';

// Brands without a mark of their own show a plain card; the field names them in words beside it.
const ICONS: Record<string, Icon> = { visa: IconBrandVisa, mastercard: IconBrandMastercard };

/** A card brand's mark in a tile: 40 px in the card list, 24 px inside the card number field. */
export function BrandIcon({ brand, size = 'md' }: { brand: string; size?: 'sm' | 'md' }) {
  const Glyph = ICONS[brand] ?? IconCreditCard;
  const md = size === 'md';
  return (
    <ThemeIcon variant="light" color="gray" size={md ? 40 : 26} radius={md ? 'md' : 'sm'} aria-hidden>
      <Glyph size={md ? 24 : 18} stroke={1.5} />
    </ThemeIcon>
  );
}
