import { describe, expect, it } from 'vitest';
import { QuantitySchema } from './billing';
import { quantityProblem } from './quantity';
import { ConfirmationSchema } from './display-forms';
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
  it("gives the message of the contract's QuantitySchema for every number it is given", () => {
    for (const value of [
      -1,
      0,
      0.5,
      1,
      1.5,
      2,
      50,
      98.9,
      99,
      100,
      1e9,
      Number.NaN,
      Infinity,
      -Infinity,
      Number.MAX_SAFE_INTEGER + 2,
    ]) {
      const parsed = QuantitySchema.safeParse(value);
      expect(quantityProblem(value), String(value)).toBe(parsed.success ? null : parsed.error.issues[0]!.message);
      expect(quantityProblem(String(value)), `'${value}'`).toBe(parsed.success ? null : parsed.error.issues[0]!.message);
    }
    for (const text of ['abc', '1e1', '0x10', ' 7 ', '3.0']) {
      const parsed = QuantitySchema.safeParse(Number(text));
      expect(quantityProblem(text), text).toBe(parsed.success ? null : parsed.error.issues[0]!.message);
    }
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
