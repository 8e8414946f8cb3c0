import { describe, expect, it } from 'vitest';
import type { InvoiceRow } from '../../providers/billing/local/local.repository';
import { renderTemplate } from '../email/render';
import { escapeHtml, formatMoney, invoicePage } from './billing-documents';

describe('money for people', () => {
  it('uses each currency’s own decimals', () => {
    expect(formatMoney(2500, 'usd')).toBe('$25.00');
    expect(formatMoney(123456, 'eur')).toBe('€1,234.56');
    expect(formatMoney(1000, 'jpy')).toBe('¥1,000');
    expect(formatMoney(-625, 'usd')).toBe('-$6.25');
  });
});

describe('receipt e-mail', () => {
  it('names the invoice number and the amount', async () => {
    const m = await renderTemplate(
      {
        to: 'a@example.com',
        template: 'receipt',
        data: {
          number: 'INV-1001',
          amountPaid: 5000,
          currency: 'usd',
          paidAt: '2025-01-31T10:00:00.000Z',
          summary: '2 × Node license (monthly)',
          lines: [],
          url: 'http://localhost:3000/api/billing/invoices/x',
        },
      },
      { name: 'Acme <Portal>', accent: '#3d52d2', publicUrl: 'http://localhost:3000' },
    );
    expect(m.subject).toBe('Your receipt for invoice INV-1001');
    expect(m.text).toContain('Invoice INV-1001\nAmount paid: $50.00\nDate: January 31, 2025');
    expect(m.html).toContain('Acme &lt;Portal&gt;');
    expect(m.html).not.toContain('<Portal>');
  });
});

describe('printable invoice', () => {
  const invoice: InvoiceRow = {
    id: '00000000-0000-4000-8000-000000000001',
    number: 'INV-1002',
    subscriptionId: null,
    userId: null,
    status: 'paid',
    currency: 'usd',
    amountDue: 1250,
    amountPaid: 1250,
    periodStart: new Date('2025-02-07T10:00:00Z'),
    periodEnd: new Date('2025-02-28T10:00:00Z'),
    lines: [
      {
        description: 'Unused time on 1 × Node license (monthly)',
        quantity: 1,
        unitAmount: 2500,
        amount: -1875,
        periodStart: '2025-02-07T10:00:00Z',
        periodEnd: '2025-02-28T10:00:00Z',
      },
      {
        description: 'Remaining time on 3 × Node license (monthly)',
        quantity: 3,
        unitAmount: 2500,
        amount: 5625,
        periodStart: '2025-02-07T10:00:00Z',
        periodEnd: '2025-02-28T10:00:00Z',
      },
    ],
    customerName: '<script>alert(1)</script>',
    customerEmail: 'a@example.com',
    reason: 'subscription_update',
    createdAt: new Date('2025-02-07T10:00:00Z'),
    taxAmount: 0,
    taxBreakdown: [],
    taxRegime: null,
    taxNote: null,
    buyer: null,
    seller: null,
  };

  it('shows lines, subtotal, credit applied and totals, and escapes what customers typed', () => {
    const html = invoicePage(invoice, 'Acme');
    expect(html).toContain('INV-1002');
    expect(html).toContain('-$18.75');
    expect(html).toContain('$56.25');
    expect(html).toContain('Subtotal</td><td class="num">$37.50');
    expect(html).toContain('Account credit applied</td><td class="num">-$25.00');
    expect(html).toContain('Amount due</td><td class="num">$12.50');
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml('<script>alert(1)</script>'));
  });
});
