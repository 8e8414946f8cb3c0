import { describe, expect, it } from 'vitest';
import { ConfirmationSchema, quantityProblem } from './display-forms';
import { TEXT } from './constants';

describe('quantityProblem', () => {
  it('accepts 1..99', () => {
    expect(quantityProblem(1)).toBeNull();
    expect(quantityProblem('99')).toBeNull();
  });
  it('asks for a number when empty', () => {
    expect(quantityProblem(' ')).toBe('Enter the number of nodes');
    expect(quantityProblem('', 3)).toBe('Enter the new number of nodes');
  });
  it('refuses out of range and fractions', () => {
    expect(quantityProblem(0)).toBe('The quantity must be at least 1');
    expect(quantityProblem(100)).toBe('The quantity can be at most 99');
    expect(quantityProblem(1.5)).toBe('The quantity must be a whole number');
  });
  it('refuses the current quantity', () => expect(quantityProblem(4, 4)).toBe(TEXT.quantityMustDiffer));
});

describe('ConfirmationSchema', () => {
  it.each(['I confirm', 'i CONFIRM'])('accepts %j', (confirm) =>
    expect(ConfirmationSchema.safeParse({ confirm }).success).toBe(true),
  );
  it.each(['', ' I confirm', 'I confirm ', 'confirm'])('refuses %j with the portal message', (confirm) => {
    const parsed = ConfirmationSchema.safeParse({ confirm });
    expect(parsed.error?.issues[0]?.message).toBe(TEXT.confirmRequired);
  });
});
