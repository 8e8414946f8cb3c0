import { describe, expect, it } from 'vitest';
import { companyGroupFor, displayName, initials, isConfirmPhrase } from './display';
import { cardBrand, cardBrandLabel } from './cards';
import { FREE_MAIL_DOMAINS } from './constants';

describe('displayName', () => {
  it('joins first and last name', () => expect(displayName({ fname: 'Ada', lname: 'Lovelace' })).toBe('Ada Lovelace'));
  it('uses one name when the other is empty', () => expect(displayName({ fname: '', lname: 'Lovelace' })).toBe('Lovelace'));
  it("says 'No name' when both are empty", () => expect(displayName({ fname: ' ', lname: '' })).toBe('No name'));
});

describe('initials', () => {
  it('takes the first letter of each name', () => expect(initials({ fname: 'ada', lname: 'lovelace' })).toBe('AL'));
  it('falls back to a question mark', () => expect(initials({ fname: '', lname: '' })).toBe('?'));
});

describe('companyGroupFor', () => {
  it('lists 18 free-mail providers', () => expect(new Set(FREE_MAIL_DOMAINS).size).toBe(18));
  it('groups a company domain', () => expect(companyGroupFor('ada@Acme.example')).toBe('acme.example'));
  it.each(FREE_MAIL_DOMAINS)('does not group %s', (d) => expect(companyGroupFor(`someone@${d}`)).toBeNull());
  it('does not group a malformed address', () => expect(companyGroupFor('nobody')).toBeNull());
});

describe('isConfirmPhrase', () => {
  it.each(['I confirm', 'i confirm', 'I CONFIRM', 'i CoNfIrM'])('accepts %j (any letter case)', (typed) =>
    expect(isConfirmPhrase(typed)).toBe(true),
  );
  it.each([' I confirm', 'I confirm ', ' I confirm ', 'I  confirm', 'I confirm it', 'Iconfirm', ''])(
    'refuses %j (nothing is trimmed)',
    (typed) => expect(isConfirmPhrase(typed)).toBe(false),
  );
});

describe('card brands', () => {
  it.each([
    ['4', 'visa'],
    ['5555', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['37', 'amex'],
    ['6011', 'discover'],
    ['3056', 'diners'],
    ['3566', 'jcb'],
    ['62', 'unionpay'],
    ['', 'unknown'],
    ['9', 'unknown'],
  ])('%j is %s, from the first digits typed', (digits, brand) => expect(cardBrand(digits)).toBe(brand));
  it('names brands as people write them', () => {
    expect(cardBrandLabel('visa')).toBe('Visa');
    expect(cardBrandLabel('amex')).toBe('American Express');
    expect(cardBrandLabel('unknown')).toBe('Card');
  });
});
