import { DOCUMENT_LOCALE, formatDocumentDate, formatMoney as formatMoneyIn } from '@portal/contract';
import type { PrintableInvoice } from '../../providers/billing/gateway';
import { percentLabel } from './tax/tax-engine';

/** Money in a document or an e-mail: the contract's one money format, in the documents' locale. */
export const formatMoney = (amountMinor: number, currency: string): string =>
  formatMoneyIn(amountMinor, currency, DOCUMENT_LOCALE);

/** A date in a document or an e-mail ('December 24, 2026', the UTC day). */
export const formatDate = (d: Date | string): string => formatDocumentDate(d);

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A printable invoice page: self-contained HTML (inline styles only; no scripts, CSP allows none). */
export function invoicePage(inv: PrintableInvoice, brand: string): string {
  const money = (n: number) => escapeHtml(formatMoney(n, inv.currency));
  const subtotal = inv.lines.reduce((s, l) => s + l.amount, 0);
  const total = subtotal + inv.taxAmount;
  const creditApplied = Math.max(0, total - inv.amountDue);
  const creditAdded = Math.max(0, -total);
  const taxRows = inv.taxBreakdown
    .map(
      (t) =>
        `<tr><td colspan="3" class="num">VAT ${escapeHtml(percentLabel(t.rateBp))} on ${money(t.net)}</td><td class="num">${money(t.tax)}</td></tr>`,
    )
    .join('\n');
  const rows = inv.lines
    .map(
      (l) => `<tr>
        <td>${escapeHtml(l.description)}<div class="muted">${escapeHtml(formatDate(new Date(l.periodStart)))} – ${escapeHtml(formatDate(new Date(l.periodEnd)))}</div></td>
        <td class="num">${l.quantity}</td>
        <td class="num">${money(l.unitAmount)}</td>
        <td class="num">${money(l.amount)}</td>
      </tr>`,
    )
    .join('\n');
  const status = inv.status === 'paid' ? 'Paid' : inv.status === 'open' ? 'Unpaid' : inv.status;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${escapeHtml(inv.number)} – ${escapeHtml(brand)}</title>
<style>
  body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
  main { max-width: 760px; margin: 32px auto; background: #fff; padding: 40px; border: 1px solid #d0d7de; border-radius: 8px; }
  h1 { font-size: 24px; margin: 0 0 4px; }
  .muted { color: #59636e; font-size: 12px; }
  .meta { display: flex; justify-content: space-between; gap: 24px; margin: 24px 0; flex-wrap: wrap; }
  table { width: 100%; border-collapse: collapse; margin-top: 16px; }
  th, td { text-align: left; padding: 8px 6px; border-bottom: 1px solid #d0d7de; vertical-align: top; }
  th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: #59636e; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tfoot td { border: 0; }
  .total td { font-weight: 600; font-size: 16px; border-top: 2px solid #1f2328; }
  .status { display: inline-block; padding: 2px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; background: ${inv.status === 'paid' ? '#dafbe1' : '#fff8c5'}; }
  .hint { margin-top: 32px; }
  @media print { body { background: #fff; } main { border: 0; margin: 0; max-width: none; padding: 0; } .hint { display: none; } }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(brand)}</h1>
  <div class="muted">Invoice</div>
  <div class="meta">
    <div>
      <div class="muted">Invoice number</div><strong>${escapeHtml(inv.number)}</strong>
      <div class="muted">Date</div>${escapeHtml(formatDate(inv.createdAt))}
      <div class="muted">Status</div><span class="status">${escapeHtml(status)}</span>
    </div>
    <div>
      <div class="muted">Billed to</div>
      ${escapeHtml(inv.customerName || 'Customer')}<br>${escapeHtml(inv.customerEmail ?? '')}
      <div class="muted">Service period</div>${escapeHtml(formatDate(inv.periodStart))} – ${escapeHtml(formatDate(inv.periodEnd))}
    </div>
  </div>
  <table>
    <thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
    <tbody>
${rows}
    </tbody>
    <tfoot>
      <tr><td colspan="3" class="num">Subtotal</td><td class="num">${money(subtotal)}</td></tr>
      ${taxRows}
      ${inv.taxBreakdown.length > 0 ? `<tr><td colspan="3" class="num">Total</td><td class="num">${money(total)}</td></tr>` : ''}
      ${creditApplied > 0 ? `<tr><td colspan="3" class="num">Account credit applied</td><td class="num">${money(-creditApplied)}</td></tr>` : ''}
      ${creditAdded > 0 ? `<tr><td colspan="3" class="num">Credited to your account for later invoices</td><td class="num">${money(creditAdded)}</td></tr>` : ''}
      <tr class="total"><td colspan="3" class="num">Amount due</td><td class="num">${money(inv.amountDue)}</td></tr>
      <tr><td colspan="3" class="num">Amount paid</td><td class="num">${money(inv.amountPaid)}</td></tr>
    </tfoot>
  </table>
  ${inv.taxNote ? `<p>${escapeHtml(inv.taxNote)}</p>` : ''}
  <p class="hint muted">To keep a copy, use your browser's Print command (Ctrl+P or ⌘P) and choose “Save as PDF”.</p>
</main>
</body>
</html>`;
}
