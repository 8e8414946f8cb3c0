import { describe, expect, it } from 'vitest';
import { companyGroupFor, displayName, initials } from './display';
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
