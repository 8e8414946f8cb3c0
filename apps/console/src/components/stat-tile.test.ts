import { describe, expect, it } from 'vitest';
import { figureSize } from './stat-tile';

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
