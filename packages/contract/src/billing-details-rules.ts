// The billing details' plain rules, without zod: the billing page uses them as it renders, and
// billing-details.ts builds the schemas from them (its validation code loads later: ADR 140).
import type { BillingDetails } from './billing-details';
import { countryName } from './format';

/** ISO 3166-1 alpha-2 country codes (and XK, Kosovo, which Stripe and VIES-free tax data use). */
export const COUNTRY_CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'.split(
    ' ',
  );
const COUNTRY_SET = new Set(COUNTRY_CODES);

/** A country code a billing address takes (one of COUNTRY_CODES). */
export const isCountryCode = (code: string) => COUNTRY_SET.has(code);

const countryLists = new Map<string, ReadonlyArray<{ value: string; label: string }>>();

/**
 * Every country a billing address takes, as a select's choices named in the reader's language
 * (`countryName`) and sorted by name; made once per locale (naming and sorting some 250 countries
 * is a few milliseconds of a phone's first render of the billing page).
 */
export function countryOptions(locale?: string): ReadonlyArray<{ value: string; label: string }> {
  let list = countryLists.get(locale ?? '');
  if (!list) {
    const byName = new Intl.Collator(locale).compare;
    list = COUNTRY_CODES.map((c) => ({ value: c, label: countryName(c, locale) })).sort((a, b) => byName(a.label, b.label));
    countryLists.set(locale ?? '', list);
  }
  return list;
}

/** EU member states, by ISO code; a VAT number's prefix is the same except Greece's (EL). */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;
export const isEuCountry = (country: string) => (EU_COUNTRIES as readonly string[]).includes(country);
/** The VAT number prefix of an EU country (Greece: EL). */
export const vatPrefixOf = (country: string) => (country === 'GR' ? 'EL' : country);

/** Countries whose addresses need a region (state, province): tax and post depend on it. */
export const COUNTRIES_WITH_REGION = ['US', 'CA', 'AU'] as const;
export const needsRegion = (country: string) => (COUNTRIES_WITH_REGION as readonly string[]).includes(country);

export const TAX_ID_TYPES = ['eu_vat', 'gb_vat', 'ch_vat', 'us_ein'] as const;
export type TaxIdType = (typeof TAX_ID_TYPES)[number];
export const TAX_ID_TYPE_LABELS: Record<TaxIdType, string> = {
  eu_vat: 'EU VAT number',
  gb_vat: 'UK VAT number',
  ch_vat: 'Swiss VAT number (UID)',
  us_ein: 'US EIN',
};

/**
 * The state of a tax ID's check: 'valid' or 'invalid' as VIES answered (EU VAT numbers), 'pending'
 * while VIES could not be asked (checked again later), 'unchecked' for types no registry is asked for.
 */
export const TAX_ID_STATUSES = ['unchecked', 'pending', 'valid', 'invalid'] as const;
export type TaxIdStatus = (typeof TAX_ID_STATUSES)[number];
/** A tax ID's check as staff read it (console); the portal words it for the customer. */
export const TAX_ID_STATUS_LABELS: Record<TaxIdStatus, string> = {
  valid: 'Valid (VIES)',
  pending: 'Being checked (VIES unreachable)',
  invalid: 'Not valid (VIES)',
  unchecked: 'Not checked (no registry)',
};

/** EU VAT number formats after the country prefix (spaces, dots and dashes removed). */
const EU_VAT_FORMATS: Record<string, { re: RegExp; hint: string }> = {
  AT: { re: /^U\d{8}$/, hint: 'ATU followed by 8 digits' },
  BE: { re: /^[01]\d{9}$/, hint: 'BE followed by 10 digits starting with 0 or 1' },
  BG: { re: /^\d{9,10}$/, hint: 'BG followed by 9 or 10 digits' },
  CY: { re: /^\d{8}[A-Z]$/, hint: 'CY followed by 8 digits and a letter' },
  CZ: { re: /^\d{8,10}$/, hint: 'CZ followed by 8 to 10 digits' },
  DE: { re: /^\d{9}$/, hint: 'DE followed by 9 digits' },
  DK: { re: /^\d{8}$/, hint: 'DK followed by 8 digits' },
  EE: { re: /^\d{9}$/, hint: 'EE followed by 9 digits' },
  EL: { re: /^\d{9}$/, hint: 'EL followed by 9 digits' },
  ES: { re: /^[A-Z0-9]\d{7}[A-Z0-9]$/, hint: 'ES followed by 9 characters (a letter or digit, 7 digits, a letter or digit)' },
  FI: { re: /^\d{8}$/, hint: 'FI followed by 8 digits' },
  FR: { re: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, hint: 'FR followed by 2 characters and 9 digits' },
  HR: { re: /^\d{11}$/, hint: 'HR followed by 11 digits' },
  HU: { re: /^\d{8}$/, hint: 'HU followed by 8 digits' },
  IE: { re: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, hint: 'IE followed by 8 or 9 characters' },
  IT: { re: /^\d{11}$/, hint: 'IT followed by 11 digits' },
  LT: { re: /^(\d{9}|\d{12})$/, hint: 'LT followed by 9 or 12 digits' },
  LU: { re: /^\d{8}$/, hint: 'LU followed by 8 digits' },
  LV: { re: /^\d{11}$/, hint: 'LV followed by 11 digits' },
  MT: { re: /^\d{8}$/, hint: 'MT followed by 8 digits' },
  NL: { re: /^\d{9}B\d{2}$/, hint: 'NL followed by 9 digits, B and 2 digits' },
  PL: { re: /^\d{10}$/, hint: 'PL followed by 10 digits' },
  PT: { re: /^\d{9}$/, hint: 'PT followed by 9 digits' },
  RO: { re: /^\d{2,10}$/, hint: 'RO followed by 2 to 10 digits' },
  SE: { re: /^\d{10}01$/, hint: 'SE followed by 12 digits ending in 01' },
  SI: { re: /^\d{8}$/, hint: 'SI followed by 8 digits' },
  SK: { re: /^\d{10}$/, hint: 'SK followed by 10 digits' },
};

/** The expected form of a member state's VAT number ('FR followed by 11 characters…'); null outside the EU. */
export const euVatFormatOf = (country: string): string | null => EU_VAT_FORMATS[vatPrefixOf(country)]?.hint ?? null;

/** A tax ID as people type it, reduced to its canonical form (upper case, no spaces, dots or dashes). */
export const compactTaxId = (value: string) => value.toUpperCase().replace(/[\s.-]/g, '');

/**
 * Checks a tax ID's format for the billing address's country. Answers the canonical value, or the
 * message to show (naming the expected format).
 */
export function checkTaxId(type: TaxIdType, raw: string, country: string): { value: string } | { message: string } {
  const v = compactTaxId(raw);
  if (type === 'eu_vat') {
    if (!isEuCountry(country)) return { message: 'An EU VAT number needs a billing address in an EU member state.' };
    const prefix = vatPrefixOf(country);
    if (!v.startsWith(prefix)) {
      return { message: `An EU VAT number for this address starts with ${prefix} (the country of the billing address).` };
    }
    const f = EU_VAT_FORMATS[prefix]!;
    if (!f.re.test(v.slice(prefix.length))) return { message: `This is not a valid VAT number format: expected ${f.hint}.` };
    return { value: v };
  }
  if (type === 'gb_vat') {
    if (country !== 'GB') return { message: 'A UK VAT number needs a billing address in the United Kingdom.' };
    if (!/^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/.test(v)) {
      return { message: 'This is not a valid VAT number format: expected GB followed by 9 or 12 digits.' };
    }
    return { value: v };
  }
  if (type === 'ch_vat') {
    if (country !== 'CH' && country !== 'LI')
      return { message: 'A Swiss VAT number needs a billing address in Switzerland or Liechtenstein.' };
    const m = /^CHE(\d{3})(\d{3})(\d{3})(MWST|TVA|IVA)?$/.exec(v);
    if (!m) return { message: 'This is not a valid VAT number format: expected CHE-123.456.789 MWST.' };
    return { value: `CHE-${m[1]}.${m[2]}.${m[3]}${m[4] ? ` ${m[4]}` : ''}` };
  }
  if (country !== 'US') return { message: 'A US EIN needs a billing address in the United States.' };
  const m = /^(\d{2})(\d{7})$/.exec(v);
  if (!m) return { message: 'This is not a valid EIN format: expected 12-3456789.' };
  return { value: `${m[1]}-${m[2]}` };
}

/** The billing details form's fields as people edit them (text; recipients in one line). */
export type BillingDetailsFormValues = {
  legalName: string;
  country: string;
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  region: string;
  taxIdType: TaxIdType | '';
  taxIdValue: string;
  recipients: string;
};

/** Saved billing details (or none yet) as the form's values. */
export const billingDetailsFormValues = (d: BillingDetails | null): BillingDetailsFormValues => ({
  legalName: d?.legalName ?? '',
  country: d?.country ?? '',
  line1: d?.line1 ?? '',
  line2: d?.line2 ?? '',
  postalCode: d?.postalCode ?? '',
  city: d?.city ?? '',
  region: d?.region ?? '',
  taxIdType: d?.taxId?.type ?? '',
  taxIdValue: d?.taxId?.value ?? '',
  recipients: d?.recipients.join(', ') ?? '',
});

/**
 * The form's values as the body UpdateBillingDetailsBodySchema checks, for the customer's form and
 * staff's alike: blanks left out, a tax ID whenever a type is chosen (an empty value is then
 * refused by the schema), recipients split at commas, semicolons or spaces.
 */
export function billingDetailsBody(v: BillingDetailsFormValues) {
  const text = (s: string) => (s.trim() === '' ? undefined : s);
  return {
    legalName: text(v.legalName),
    country: v.country,
    line1: text(v.line1),
    line2: text(v.line2),
    postalCode: text(v.postalCode),
    city: text(v.city),
    region: text(v.region),
    taxId: v.taxIdType ? { type: v.taxIdType, value: v.taxIdValue.trim() === '' ? '' : v.taxIdValue } : null,
    recipients: v.recipients
      .split(/[\s,;]+/)
      .map((r) => r.trim())
      .filter(Boolean),
  };
}
