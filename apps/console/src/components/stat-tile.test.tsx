import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { figureSize, StatTile } from './stat-tile';

describe('StatTile', () => {
  it('is label, figure and hint as three rows of its grid, so tiles side by side put their figures on one line', () => {
    render(
      <MantineProvider>
        <StatTile label="Active subscriptions" value="3" hint="1 past due; 6 customer accounts in all" />
      </MantineProvider>,
    );
    const tile = screen.getByRole('group', { name: 'Active subscriptions' });
    expect(tile).toHaveClass(/tile/);
    expect(tile.children).toHaveLength(3);
    expect(tile.children[1]).toHaveClass(/figure/);
    expect(tile.children[1]).toHaveTextContent('3');
    expect(tile.children[2]).toHaveTextContent('1 past due; 6 customer accounts in all');
  });
});

describe('figureSize', () => {
  it('keeps short figures and anything not text at the full size', () => {
    expect(figureSize('321')).toBe(26);
    expect(figureSize('$75.00')).toBe(26);
    expect(figureSize(null)).toBe(26);
  });

  it('lets a long figure shrink with its tile, about 0.62 em a character', () => {
    expect(figureSize('$98,765,432.10')).toBe('min(26px, calc(100cqi / 8.68))');
  });
});
