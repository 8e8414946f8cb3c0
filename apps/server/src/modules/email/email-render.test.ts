import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../../../e2e/chromium';
import { TEMPLATE_DATA, type EmailJob } from './email-job';
import type { BrandLook } from './layout';
import { compileTemplate, renderTemplate } from './render';

const look: BrandLook = { name: 'Acme <Nodes>', accent: '#3d52d2', publicUrl: 'https://portal.acme.test' };
const url = 'https://portal.acme.test/app/billing';

/** One sample of every template; the test fails when a template is added without one. */
const SAMPLES: EmailJob[] = [
  {
    to: 'a@example.com',
    template: 'sign-in',
    data: { url: 'https://portal.acme.test/login?link=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde&to=%2Fapp', minutes: 15 },
  },
  {
    to: 'a@example.com',
    template: 'receipt',
    data: {
      number: 'INV-1002',
      paidAt: '2026-02-07T10:00:00.000Z',
      currency: 'usd',
      amountPaid: 3750,
      summary: '3 × Node license (monthly)',
      lines: [
        {
          description: 'Unused time on 1 × Node license (monthly)',
          quantity: 1,
          amount: -1875,
          periodStart: '2026-02-07T10:00:00.000Z',
          periodEnd: '2026-02-28T10:00:00.000Z',
        },
        {
          description: 'Remaining time on 3 × Node license (monthly) <b>',
          quantity: 3,
          amount: 5625,
          periodStart: '2026-02-07T10:00:00.000Z',
          periodEnd: '2026-02-28T10:00:00.000Z',
        },
      ],
      url: 'https://portal.acme.test/api/billing/invoices/00000000-0000-4000-8000-000000000001',
    },
  },
  {
    to: 'a@example.com',
    template: 'payment-failed',
    data: { number: 'INV-1003', currency: 'usd', amountDue: 25000, accessUntil: '2026-03-01T00:00:00.000Z', url },
  },
  {
    to: 'a@example.com',
    template: 'payment-reminder',
    data: { number: 'INV-1003', currency: 'usd', amountDue: 25000, accessUntil: '2026-03-15T00:00:00.000Z', url },
  },
  {
    to: 'a@example.com',
    template: 'renewal-upcoming',
    data: { summary: '10 × Node license (yearly)', renewsOn: '2026-12-01T00:00:00.000Z', currency: 'eur', amount: 250000, url },
  },
  {
    to: 'a@example.com',
    template: 'card-expiring',
    data: { cardBrand: 'Visa', last4: '4242', expMonth: 11, expYear: 2026, renewsOn: '2026-12-01T00:00:00.000Z', url },
  },
  {
    to: 'a@example.com',
    template: 'credit-note',
    data: {
      number: 'CN-0001',
      invoiceNumber: 'INV-0007',
      kind: 'refund',
      currency: 'eur',
      total: 1190,
      issuedAt: '2026-11-24T08:00:00.000Z',
      url,
    },
  },
  { to: 'a@example.com', template: 'account-deleted', data: { deletedAt: '2026-11-24T08:00:00.000Z' } },
  {
    to: 'a@example.com',
    template: 'subscription-cancelled',
    data: { summary: '2 × Node license (monthly)', accessUntil: '2026-12-24T00:00:00.000Z', url },
  },
  {
    to: 'a@example.com',
    template: 'subscription-ended',
    data: { summary: '2 × Node license (monthly)', endedOn: '2026-11-24T00:00:00.000Z', url },
  },
];

const render = (job: EmailJob, l: BrandLook = look) => renderTemplate(job as never, l);

describe('e-mail templates', () => {
  it('has a sample for every template', () => {
    expect(SAMPLES.map((s) => s.template).sort()).toEqual(Object.keys(TEMPLATE_DATA).sort());
  });

  it.each(SAMPLES.map((s) => [s.template, s] as const))(
    '%s: branded HTML with every token filled, and a plain-text part',
    async (_n, job) => {
      const m = await render(job);
      expect(m.subject.length).toBeGreaterThan(5);
      expect(m.html).not.toMatch(/\{\{|\}\}/);
      // The brand's name is escaped in the HTML (it comes from the settings, not from code).
      expect(m.html).toContain('Acme &lt;Nodes&gt;');
      expect(m.html).not.toContain('<Nodes>');
      expect(m.html).toContain('#3d52d2');
      expect(m.html).toContain(`<title>${m.subject.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>`);
      expect(m.text.replaceAll(look.name, '').replaceAll(' <b>', '')).not.toMatch(/<[a-z/]/i);
      expect(m.text).toContain('Acme <Nodes>\nhttps://portal.acme.test');
    },
  );

  it('keeps the sign-in texts and puts the link on a line of its own in the text part', async () => {
    const m = await render(SAMPLES[0]!);
    expect(m.subject).toBe('Your sign-in link for Acme <Nodes>');
    expect(m.text).toMatch(/^https:\/\/portal\.acme\.test\/login\?link=[A-Za-z0-9_-]{43}&to=%2Fapp$/m);
    expect(m.html).toContain(
      'href="https://portal.acme.test/login?link=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde&amp;to=%2Fapp"',
    );
    expect(m.text).toContain('The link works once and expires in 15 minutes.');
  });

  it('lists a receipt’s line items as a table, escaped, with the total', async () => {
    const m = await render(SAMPLES[1]!);
    expect(m.subject).toBe('Your receipt for invoice INV-1002');
    expect(m.text).toContain('Invoice INV-1002\nAmount paid: $37.50\nDate: February 7, 2026');
    expect(m.text).toContain('- Unused time on 1 × Node license (monthly) (1): -$18.75');
    expect(m.html).toMatch(/Unused time on 1 × Node license \(monthly\)<div[^>]*>February 7, 2026 – February 28, 2026<\/div>/);
    expect(m.html).toContain('Remaining time on 3 × Node license (monthly) &lt;b&gt;');
    expect(m.html).toContain('$56.25');
    expect(m.html).toMatch(/Total paid<\/td><td[^>]*>\$37\.50/);
  });

  it('shows the logo when the settings give one', async () => {
    const m = await render(SAMPLES[2]!, { ...look, logoUrl: 'https://cdn.acme.test/logo.png?a=1&b=2' });
    expect(m.html).toContain('src="https://cdn.acme.test/logo.png?a=1&amp;b=2"');
    expect(m.html).toContain('alt="Acme &lt;Nodes&gt;"');
  });

  it('compiles each template once per brand and reuses it', async () => {
    const first = compileTemplate('receipt', look);
    expect(compileTemplate('receipt', look)).toBe(first);
    expect(compileTemplate('receipt', { ...look, accent: '#000000' })).not.toBe(first);
  });
});

/** Every e-mail in Chromium at a desktop mail client's width and a phone's, as PNGs under .tmp/emails. */
describe('e-mails in a browser', () => {
  let browser: Browser;
  const dir = path.resolve(import.meta.dirname, '../../../../../.tmp/emails');
  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 120_000);
  afterAll(() => browser?.close());

  it.each(SAMPLES.map((s) => [s.template, s] as const))(
    '%s fits 600 px and 375 px without sideways scrolling',
    async (name, job) => {
      const m = await render(job);
      for (const width of [600, 375]) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        // Offline: a mail client shows the HTML as it is; nothing may need the network.
        await page.route('**/*', (r) => r.abort());
        await page.setContent(m.html, { waitUntil: 'load' });
        // A string: the server's type library has no DOM.
        const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
        expect(overflow, `${name} at ${width}px`).toBeLessThanOrEqual(0);
        const button = page.locator('a', { hasText: /Sign in to|View or print|Update your card|Review billing|Open billing/ });
        if ((await button.count()) > 0) {
          const box = await button.first().boundingBox();
          expect(box!.height, `${name} button height at ${width}px`).toBeGreaterThanOrEqual(40);
          expect(box!.x + box!.width, `${name} button inside at ${width}px`).toBeLessThanOrEqual(width);
        }
        await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
        await page.close();
      }
    },
    120_000,
  );
});
