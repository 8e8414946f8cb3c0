import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithStore } from '../test/render';
import { sentenceCase } from '@portal/contract';
import { StatusBadge } from '@portal/ui';

describe('sentenceCase', () => {
  it('turns shouted or snake-case states into sentence case', () => {
    expect(sentenceCase('ACTIVE')).toBe('Active');
    expect(sentenceCase('PAST_DUE')).toBe('Past due');
    expect(sentenceCase('paid')).toBe('Paid');
  });
  it('keeps labels already written in mixed case', () => {
    expect(sentenceCase('Payment failed')).toBe('Payment failed');
    expect(sentenceCase('Standard ISO')).toBe('Standard ISO');
  });
});

describe('StatusBadge', () => {
  it('shows its label in sentence case, never upper-cased by the theme', () => {
    renderWithStore(<StatusBadge tone="positive">DEFAULT</StatusBadge>);
    const badge = screen.getByText('Default');
    expect(badge.closest('[data-tone]')).toHaveAttribute('data-tone', 'positive');
    expect(getComputedStyle(badge.closest('.mantine-Badge-root')!).textTransform).not.toBe('uppercase');
  });

  it('colours by meaning', () => {
    renderWithStore(
      <>
        <StatusBadge tone="positive">Active</StatusBadge>
        <StatusBadge tone="warning">Cancelling</StatusBadge>
        <StatusBadge tone="critical">Expired</StatusBadge>
        <StatusBadge tone="neutral">Inactive</StatusBadge>
      </>,
    );
    const colorOf = (text: string) => screen.getByText(text).closest('.mantine-Badge-root')!.getAttribute('style') ?? '';
    expect(colorOf('Active')).toContain('green');
    expect(colorOf('Cancelling')).toContain('yellow');
    expect(colorOf('Expired')).toContain('red');
    expect(colorOf('Inactive')).toContain('gray');
  });

  it('keeps any badge of the app out of capitals, even one not made by StatusBadge', async () => {
    const { Badge } = await import('@mantine/core');
    renderWithStore(<Badge>Paid</Badge>);
    expect(getComputedStyle(screen.getByText('Paid').closest('.mantine-Badge-root')!).textTransform).toBe('none');
  });
});
