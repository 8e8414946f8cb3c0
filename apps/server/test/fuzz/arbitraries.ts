import fc from 'fast-check';
import { API_TOKEN_SCOPES, LICENSE_KEY_ALPHABET, licenseKeyCheckCharacter, QUANTITY_MAX, QUANTITY_MIN } from '@portal/contract';

/**
 * Valid inputs, hand-written per contract schema. Each route of the table names the generator of
 * every part it takes; `arbitraries.test.ts` checks that whatever these produce passes the contract,
 * so a schema that tightens fails there first (and not as a confusing fuzz failure).
 */

/** What a fuzzing customer owns: the real ids that valid requests point at (beside unknown ones). */
export type FuzzIds = {
  licenseKey: string;
  nodeId: string;
  fingerprint: string;
  stripeId: string;
  paymentMethodId: string;
  invoiceId: string;
  /** Unused client secrets of local setup intents. */
  setupSecrets: string[];
  /** The parts of a signed download URL, when a release file exists. */
  download: { filename: string; expires: string; u: string; sig: string } | null;
};

export const NO_IDS: FuzzIds = {
  licenseKey: wellFormedKey('ZZZZZZZZZZZZZZZZZZZZZZZ2'),
  nodeId: '00000000-0000-4000-8000-000000000000',
  fingerprint: 'fp-none',
  stripeId: 'sub_none',
  paymentMethodId: 'pm_none',
  invoiceId: 'in_none',
  setupSecrets: [],
  download: null,
};

export type Gen = (ids: FuzzIds) => fc.Arbitrary<unknown>;

const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);

/** A key with the right shape and check character: `body` is its first 24 symbols. */
export function wellFormedKey(body: string): string {
  const symbols = body + licenseKeyCheckCharacter(body);
  return symbols.match(/.{5}/g)!.join('-');
}

export const licenseKeyArb = fc
  .array(fc.constantFrom(...LICENSE_KEY_ALPHABET), { minLength: 24, maxLength: 24 })
  .map((s) => wellFormedKey(s.join('')));

/** Names as people type them: any Unicode, at most 100 characters once trimmed, never blank. */
const personName = fc
  .oneof(word, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }))
  .filter((s) => s.trim().length > 0 && s.trim().length <= 100);

const email = fc.tuple(word, word).map(([a, b]) => `${a}@${b}.example.com`);
const safePath = fc.oneof(
  fc.constantFrom('/', '/app/licenses', '/app/billing?tab=invoices', '/app/dashboard#top'),
  word.map((w) => `/app/${w}`),
);
const pageNumber = (max: number) => fc.integer({ min: 1, max }).map(String);
const fingerprint = fc.stringMatching(/^[\x21-\x7e]{1,64}$/);
const interval = fc.constantFrom('month', 'year');
const quantity = fc.integer({ min: QUANTITY_MIN, max: QUANTITY_MAX });
const opaqueId = (prefix: string) => word.map((w) => `${prefix}${w}`);

export const valid = {
  billingDetailsBody: () =>
    fc.oneof(
      fc.record({ country: fc.constantFrom('DE', 'FR', 'GB', 'CH') }),
      fc.record({ country: fc.constant('US'), region: fc.constantFrom('CA', 'NY') }),
      fc.record({
        legalName: fc.string({ maxLength: 40 }),
        country: fc.constant('GB'),
        taxId: fc.constant({ type: 'gb_vat', value: 'GB123456789' }),
      }),
    ),
  checkoutPreviewQuery: () => fc.record({ interval, quantity: quantity.map(String) }),
  requestLinkBody: () => fc.record({ email, to: safePath }, { requiredKeys: ['email'] }),
  linkIdParams: () => fc.record({ id: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) }),
  googleStartQuery: () => fc.record({ to: safePath }, { requiredKeys: [] }),
  sessionQuery: () => fc.record({ optional: fc.constant('true' as const) }, { requiredKeys: [] }),
  googleCallbackQuery: () =>
    fc.record(
      { code: word, state: word, error: fc.constantFrom('access_denied', 'server_error'), error_description: word, hd: word },
      { requiredKeys: [] },
    ),
  profileBody: () =>
    fc.record(
      { fname: personName, lname: personName, company: fc.oneof(fc.constant(''), personName) },
      { requiredKeys: ['fname', 'lname'] },
    ),
  pageQuery: () => fc.record({ page: pageNumber(9999), size: pageNumber(100) }, { requiredKeys: [] }),
  deleteAccountQuery: () => fc.constant({ i_want_to_delete_my_account: 'true' }),
  createApiTokenBody: () =>
    fc.record({
      name: personName,
      scopes: fc.subarray([...API_TOKEN_SCOPES], { minLength: 1 }),
      expiresInDays: fc.constantFrom(30, 90, 365, null),
    }),
  apiTokenParams: () => fc.record({ id: fc.uuid() }),
  licenseKeyParams: (ids: FuzzIds) =>
    fc.record({
      licenseKey: fc.oneof(
        fc.constant(ids.licenseKey),
        // The contract trims and upper-cases what a person typed.
        fc.constant(ids.licenseKey.toLowerCase()),
        licenseKeyArb,
      ),
    }),
  nodeParams: (ids: FuzzIds) =>
    fc.record({
      licenseKey: fc.oneof(fc.constant(ids.licenseKey), licenseKeyArb),
      id: fc.oneof(fc.constant(ids.nodeId), fc.uuid()),
    }),
  activateBody: (ids: FuzzIds) =>
    fc.record(
      { fingerprint: fc.oneof(fc.constant(ids.fingerprint), fingerprint), hostname: fc.oneof(fc.constant(''), word) },
      { requiredKeys: ['fingerprint'] },
    ),
  validateBody: (ids: FuzzIds) =>
    fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.record(
        { fingerprint: fc.oneof(fc.constant(ids.fingerprint), fingerprint), nonce: fc.string({ maxLength: 64 }) },
        { requiredKeys: [] },
      ),
    ),
  methodParams: (ids: FuzzIds) => fc.record({ id: fc.oneof(fc.constant(ids.paymentMethodId), opaqueId('pm_')) }),
  confirmSetupBody: (ids: FuzzIds) =>
    fc.record({
      clientSecret: ids.setupSecrets.length > 0 ? fc.constantFrom(...ids.setupSecrets) : opaqueId('seti_'),
      number: fc.oneof(
        fc.constantFrom('4242 4242 4242 4242', '4000000000000002', '4000 0000 0000 9995', '5555555555554444'),
        fc.stringMatching(/^\d{12,19}$/),
      ),
      expMonth: fc.integer({ min: 1, max: 12 }),
      expYear: fc.integer({ min: 2000, max: 2100 }),
      cvc: fc.stringMatching(/^\d{3,4}$/),
    }),
  checkoutBody: (ids: FuzzIds) =>
    fc.record(
      { interval, quantity, paymentMethodId: fc.oneof(fc.constant(ids.paymentMethodId), opaqueId('pm_')) },
      { requiredKeys: ['interval', 'quantity'] },
    ),
  checkoutHeaders: () => fc.record({ 'idempotency-key': fc.stringMatching(/^[A-Za-z0-9_.:-]{8,40}$/) }, { requiredKeys: [] }),
  subscriptionParams: (ids: FuzzIds) => fc.record({ stripeId: fc.oneof(fc.constant(ids.stripeId), opaqueId('sub_')) }),
  intervalBody: () => fc.record({ interval }),
  quantityBody: () => fc.record({ quantity }),
  payBody: (ids: FuzzIds) => fc.record({ paymentMethodId: fc.oneof(fc.constant(ids.paymentMethodId), opaqueId('pm_')) }),
  previewBody: () => fc.oneof(fc.record({ quantity }), fc.record({ interval })),
  invoiceParams: (ids: FuzzIds) => fc.record({ id: fc.oneof(fc.constant(ids.invoiceId), opaqueId('in_')) }),
  downloadQuery: () => fc.record({ refresh: fc.constantFrom('true', 'false') }, { requiredKeys: [] }),
  downloadFileParams: (ids: FuzzIds) =>
    fc.record({ filename: ids.download ? fc.constant(ids.download.filename) : fc.stringMatching(/^[a-z0-9-]{1,20}\.iso$/) }),
  downloadFileQuery: (ids: FuzzIds) =>
    ids.download
      ? fc.constant({ expires: ids.download.expires, u: ids.download.u, sig: ids.download.sig })
      : fc.record({ expires: fc.integer({ min: 0, max: 2 ** 40 }).map(String), u: fc.uuid(), sig: word }, { requiredKeys: [] }),
  docsParams: () =>
    fc.record({ '*': fc.constantFrom('index.css', 'swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png') }),
} satisfies Record<string, Gen>;

/* ------------------------------------------------------------------------------------------------
 * Hostile values
 * ---------------------------------------------------------------------------------------------- */

/** 100 KB: past every body limit of the API (16 KiB on small routes). */
export const HUGE = 100 * 1024;

/** Pieces of text that break naive code: lone surrogates, direction marks, NUL, emoji, look-alikes. */
export const ODD_PIECES = [
  '\uD800',
  '\uDFFF',
  'a\uD83D',
  '\uDE00b',
  '\u202E',
  '\u200F',
  '\u200B',
  '\u0000',
  'a\u0000b',
  '\u0007',
  '\u001B[31m',
  '\r\n',
  '\u2028',
  '\uFEFF',
  '\uFFFF',
  '\uFFFE',
  '\u{10FFFF}',
  '😀',
  '👩‍👩‍👧‍👦',
  '🇺🇳',
  'e\u0301',
  'İ',
  'ß',
  'ﬁ',
  'Ｋ',
  '١٢٣',
  '\u00A0',
  '%00',
  '%',
  '../',
  '..\\',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"',
  '\\',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'null',
  'undefined',
  ' ',
];

export const oddText = fc
  .array(fc.oneof(fc.constantFrom(...ODD_PIECES), fc.string({ unit: 'binary', maxLength: 4 })), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));

/** A long string of `n` units built from one repeated piece (odd ones included). */
export const longText = (min: number, max: number) =>
  fc
    .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', '\uD800', ' ', '-'), fc.integer({ min, max }))
    .map(([piece, n]) => piece.repeat(Math.ceil(n / piece.length)).slice(0, n));

/** Any JSON value that is not what a field expects: the wrong-type mutations. */
export const wrongTyped = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), word), { maxLength: 3 }),
  fc.dictionary(word, fc.oneof(fc.integer(), word), { maxKeys: 3 }),
  word,
  fc.constantFrom('', ' ', '1', 'true', 'month ', 'MONTH', '01'),
);

/** Number-looking strings that are not the whole number a query parameter wants. */
export const oddNumberText = fc.constantFrom(
  '-1',
  '0',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '1e3',
  '99999999999999999999',
  '1000000001',
  '1.5',
  ' 1',
  '1 ',
  '+1',
  '0x1F',
  '0b1',
  '１',
  '١',
  '',
  'null',
  'true',
);

/** Raw path segments, sent without encoding: traversal, NUL, broken escapes, router-length limits. */
export const RAW_SEGMENTS = [
  '..',
  '.',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2e%2e%2f',
  '..%5C..%5C',
  '%00',
  'a%00b',
  '%00%00%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '%20',
  '%0A',
  '%0D%0ASet-Cookie:%20x=1',
  '*',
  ';',
  ';jsessionid=1',
  '%3F',
  '%23',
  '%2F',
  '~',
  'x'.repeat(101),
  'x'.repeat(5000),
  '%F0%9F%98%80',
  '%E2%80%AE',
];

/** Raw query strings (after the `?`) that are malformed in themselves. */
export const RAW_QUERIES = [
  '',
  '&',
  '&&&',
  '=',
  '==',
  '=x',
  '%',
  '%zz=1',
  'page=%',
  'page=%E0%A4%A',
  'page=%ED%A0%80',
  'page',
  'page&page',
  'page[]=1',
  'page[0]=1&page[1]=2',
  'page.size=1',
  '__proto__=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'hasOwnProperty=1',
  'toString=1',
  'a=1&'.repeat(2000),
  `page=${'9'.repeat(1000)}`,
  'page=1;size=2',
  'page=1%00',
  'size=%2B1',
];
