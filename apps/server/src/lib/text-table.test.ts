import { describe, expect, it } from 'vitest';
import { textTable } from './text-table';

describe('textTable', () => {
  it('pads each column to its widest cell and trims the ends of lines', () => {
    expect(
      textTable(
        ['KEY', 'NODES'],
        [
          ['AAAAA-BBBBB', '1/5'],
          ['C', '10/10'],
        ],
      ),
    ).toBe('KEY          NODES\nAAAAA-BBBBB  1/5\nC            10/10');
  });

  it('is the header alone without rows', () => {
    expect(textTable(['EMAIL', 'ROLE'], [])).toBe('EMAIL  ROLE');
  });
});
