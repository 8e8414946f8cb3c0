import { describe, expect, it } from 'vitest';
import { decideTax, EXPORT_NOTE, REVERSE_CHARGE_NOTE, taxLines, taxOfAmount } from './tax-engine';
import { loadTaxRates, taxRatesFrom } from './tax-rates';

const rates = loadTaxRates(undefined);
const DE = { vatRegistered: true, country: 'DE' };
const vat = (value: string, status: 'valid' | 'invalid' | 'pending') => ({ type: 'eu_vat' as const, value, status });

describe('the rates file', () => {
  it('has every member state, the date it was checked, and the vendor rules over the EU rates', () => {
    expect(rates.checkedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(rates.rateBp('DE')).toBe(1900);
    expect(rates.rateBp('FI')).toBe(2550);
    expect(rates.rateBp('GB')).toBe(2000);
    const own = taxRatesFrom(
      {
        checkedOn: '2026-01-01',
        eu: Object.fromEntries(
          [...'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ')].map((c) => [c, 20]),
        ),
        vendor: { rates: { DE: 7 } },
      },
      'test',
    );
    expect(own.rateBp('DE')).toBe(700);
  });

  it('refuses a file without a member state', () => {
    expect(() => taxRatesFrom({ checkedOn: '2026-01-01', eu: { DE: 19 } }, 'test')).toThrow(/no rate for AT/);
  });
});

describe('the regime of a sale', () => {
  it('charges no tax when the seller is not registered for VAT', () => {
    expect(decideTax({ vatRegistered: false, country: 'DE' }, { country: 'DE', taxId: null }, rates)).toEqual({
      regime: 'none',
      country: null,
      rateBp: 0,
      note: null,
    });
  });
  it('charges the domestic rate in the seller’s country, with or without a VAT number', () => {
    expect(decideTax(DE, { country: 'DE', taxId: null }, rates)).toMatchObject({ regime: 'domestic', rateBp: 1900, note: null });
    expect(decideTax(DE, { country: 'DE', taxId: vat('DE123456789', 'valid') }, rates)).toMatchObject({
      regime: 'domestic',
      rateBp: 1900,
    });
    expect(decideTax(DE, null, rates)).toMatchObject({ regime: 'domestic', country: 'DE', rateBp: 1900 });
  });
  it('reverse-charges an EU business with a valid VAT number, and charges the buyer country’s rate otherwise', () => {
    expect(decideTax(DE, { country: 'FR', taxId: vat('FR12345678901', 'valid') }, rates)).toEqual({
      regime: 'reverse_charge',
      country: 'FR',
      rateBp: 0,
      note: REVERSE_CHARGE_NOTE,
    });
    for (const status of ['invalid', 'pending'] as const) {
      expect(decideTax(DE, { country: 'FR', taxId: vat('FR12345678901', status) }, rates)).toMatchObject({
        regime: 'eu_consumer',
        country: 'FR',
        rateBp: 2000,
      });
    }
    expect(decideTax(DE, { country: 'FR', taxId: null }, rates)).toMatchObject({ regime: 'eu_consumer', rateBp: 2000 });
  });
  it('treats a buyer outside the seller’s tax area as an export at 0 %', () => {
    expect(decideTax(DE, { country: 'US', taxId: null }, rates)).toEqual({
      regime: 'export',
      country: 'US',
      rateBp: 0,
      note: EXPORT_NOTE,
    });
    expect(decideTax({ vatRegistered: true, country: 'GB' }, { country: 'FR', taxId: null }, rates)).toMatchObject({
      regime: 'export',
    });
    expect(decideTax({ vatRegistered: true, country: 'GB' }, { country: 'GB', taxId: null }, rates)).toMatchObject({
      regime: 'domestic',
      rateBp: 2000,
    });
  });
});

describe('one rounding rule', () => {
  it('rounds each line half away from zero, to the cent', () => {
    expect(taxOfAmount(50, 1900)).toBe(10); // 9.5
    expect(taxOfAmount(-50, 1900)).toBe(-10);
    expect(taxOfAmount(49, 1900)).toBe(9); // 9.31
    expect(taxOfAmount(-1875, 1900)).toBe(-356); // -356.25
    expect(taxOfAmount(5625, 1900)).toBe(1069); // 1068.75
    expect(taxOfAmount(999, 2550)).toBe(255); // 254.745
    expect(taxOfAmount(2500, 0)).toBe(0);
  });
  it('sums per line, so the totals add up to the cent', () => {
    const t = taxLines([{ amount: -1875 }, { amount: 5625 }], 1900);
    expect(t).toEqual({
      net: 3750,
      tax: 713,
      total: 4463,
      lineTaxes: [-356, 1069],
      breakdown: [{ rateBp: 1900, net: 3750, tax: 713 }],
    });
  });
});
