import { describe, expect, it } from 'vitest';
import { isStorableText, isVisibleText } from './common';
import { ValidateBodySchema } from './licenses';

describe('isVisibleText (names shown to others)', () => {
  it.each([
    ['right-to-left override', 'Ann\u202Egnp.exe'],
    ['pop directional formatting', 'Ann\u202C'],
    ['first strong isolate', '\u2068Ann'],
    ['left-to-right mark', 'Ann\u200E'],
    ['zero-width space', 'An\u200Bn'],
    ['zero-width joiner between Latin letters', 'An\u200Dn'],
    ['zero-width non-joiner between Cyrillic letters', 'Ан\u200Cна'],
    ['zero-width joiner at the start', '\u200D👩'],
    ['byte-order mark', 'An\uFEFFn'],
    ['invisible separator', 'An\u2063n'],
    ['a C1 control', 'An\u0085n'],
    ['a newline', 'Ann\nOther'],
  ])('refuses a %s', (_what, v) => {
    expect(isVisibleText(v)).toBe(false);
  });

  it.each([
    ['plain Latin', 'Ada Lovelace'],
    ['accents and apostrophes', "Zoë O'Brien-Ångström"],
    ['Persian with a non-joiner inside a word', 'مهر\u200Cداد'],
    ['Devanagari with a joiner', 'क्\u200Dष'],
    ['an emoji ZWJ sequence', '👩\u200D💻'],
    ['an emoji ZWJ sequence with a skin tone', '👩🏽\u200D🚀'],
    ['a heart on fire (VS16 before the joiner)', '❤\uFE0F\u200D🔥'],
    ['CJK', '山田 太郎'],
  ])('accepts %s', (_what, v) => {
    expect(isVisibleText(v)).toBe(true);
  });
});

describe('the validate nonce follows the storable-text rules', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800'],
    ['a lone low surrogate', '\uDC00a'],
  ])('refuses %s', (_what, nonce) => {
    expect(isStorableText(nonce)).toBe(false);
    expect(ValidateBodySchema.safeParse({ nonce }).success).toBe(false);
  });

  it('accepts other text, including pairs of surrogates', () => {
    expect(ValidateBodySchema.safeParse({ nonce: 'n-😀-\uD83D\uDE00' }).success).toBe(true);
  });
});
