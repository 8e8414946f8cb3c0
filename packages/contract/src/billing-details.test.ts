import { describe, expect, it } from 'vitest';
import {
  billingDetailsBody,
  billingDetailsFormValues,
  checkTaxId,
  COUNTRY_CODES,
  countryOptions,
  euVatFormatOf,
} from './billing-details-rules';
import { countryName } from './format';

describe('tax ID formats', () => {
  it("names each member state's VAT number form, Greece under its EL prefix, none outside the EU", () => {
    expect(euVatFormatOf('FR')).toBe('FR followed by 2 characters and 9 digits');
    expect(euVatFormatOf('GR')).toBe('EL followed by 9 digits');
    expect(euVatFormatOf('US')).toBeNull();
  });
  it('accepts a VAT number as people type it and refuses one of another form, naming the form', () => {
    expect(checkTaxId('eu_vat', 'fr 40 303 265 045', 'FR')).toEqual({ value: 'FR40303265045' });
    const refused = checkTaxId('eu_vat', 'DE12345', 'DE');
    expect('message' in refused && refused.message).toContain('DE followed by 9 digits');
  });
});

describe('the billing details form', () => {
  it('sends blanks as absent, a chosen tax ID type with its value, and recipients split', () => {
    const values = { ...billingDetailsFormValues(null), country: 'FR', city: 'Lyon', taxIdType: 'eu_vat' as const };
    expect(billingDetailsBody({ ...values, taxIdValue: '  ', recipients: 'a@x.example, b@x.example;c@x.example' })).toEqual({
      legalName: undefined,
      country: 'FR',
      line1: undefined,
      line2: undefined,
      postalCode: undefined,
      city: 'Lyon',
      region: undefined,
      taxId: { type: 'eu_vat', value: '' },
      recipients: ['a@x.example', 'b@x.example', 'c@x.example'],
    });
    expect(billingDetailsBody({ ...values, taxIdType: '' }).taxId).toBeNull();
  });
});

describe('countryOptions', () => {
  it('names every country in the given language, sorted by name, and makes the list once per language', () => {
    const english = countryOptions('en');
    expect(english).toHaveLength(COUNTRY_CODES.length);
    expect(english.find((c) => c.value === 'DE')).toEqual({ value: 'DE', label: 'Germany' });
    const labels = english.map((c) => c.label);
    expect(labels).toEqual([...labels].sort(new Intl.Collator('en').compare));
    expect(countryOptions('en')).toBe(english);

    const german = countryOptions('de');
    expect(german).not.toBe(english);
    expect(german.find((c) => c.value === 'DE')?.label).toBe('Deutschland');
    expect(countryName('XK', 'en')).toBe('Kosovo');
  });
});
