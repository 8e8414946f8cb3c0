import { createRequire } from 'node:module';
import type { InvoiceParty, TaxBreakdownRow } from '../../db/schema/index';
import { formatDate, formatMoney } from './billing-documents';
import { percentLabel } from './tax/tax-engine';

const require = createRequire(import.meta.url);
/** Inter, embedded (subset) in every document: the same glyphs on every machine, any Latin, Greek or Cyrillic name. */
const FONT_REGULAR = require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf');
const FONT_BOLD = require.resolve('@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf');

export type PdfLine = {
  description: string;
  periodStart?: string;
  periodEnd?: string;
  quantity: number;
  unitAmount: number;
  amount: number;
};

/** Everything a document shows: an invoice or a credit note, as issued. */
export type PdfDocumentInput = {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** The issue date; also the PDF's creation date, so rendering again gives the same bytes. */
  issuedAt: Date;
  /** Paid, Unpaid, Refunded … (invoices); credit notes say what was given back. */
  status: string;
  brand: string;
  seller: InvoiceParty | null;
  buyer: InvoiceParty | null;
  currency: string;
  period?: { start: Date; end: Date } | undefined;
  lines: PdfLine[];
  /** Net of the lines. */
  subtotal: number;
  taxBreakdown: TaxBreakdownRow[];
  tax: number;
  total: number;
  /** Invoices: account credit used, what was due and paid. */
  creditApplied?: number;
  amountDue?: number;
  amountPaid?: number;
  taxNote: string | null;
  /** Credit notes: the invoice they correct. */
  refersTo?: { number: string; issuedAt: Date } | undefined;
};

const countryName = (code: string | null) => {
  if (!code) return null;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

const TAX_ID_LABEL: Record<string, string> = {
  eu_vat: 'VAT ID',
  gb_vat: 'VAT ID',
  ch_vat: 'VAT ID',
  us_ein: 'EIN',
  seller: 'VAT ID',
};

function partyLines(p: InvoiceParty): string[] {
  const lines = [...(p.contact ? [`Attn. ${p.contact}`] : []), ...p.addressLines];
  const country = countryName(p.country);
  if (country) lines.push(country);
  if (p.taxId) lines.push(`${TAX_ID_LABEL[p.taxId.type] ?? 'Tax ID'}: ${p.taxId.value}`);
  if (p.registration) lines.push(p.registration);
  if (p.email) lines.push(p.email);
  return lines;
}

/**
 * Renders an invoice or a credit note as a PDF (pdfkit, A4). Deterministic: the embedded font
 * comes from node_modules, the creation date is the issue date and pdfkit derives the document's
 * id and the font subset's tag from them, so the same document renders to the same bytes.
 */
export async function renderPdf(doc: PdfDocumentInput): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const title = `${doc.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${doc.number}`;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: true,
    info: {
      Title: title,
      Author: doc.seller?.name ?? doc.brand,
      Subject: title,
      Creator: doc.brand,
      Producer: doc.brand,
      CreationDate: doc.issuedAt,
      ModDate: doc.issuedAt,
    },
    lang: 'en',
    displayTitle: true,
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', FONT_REGULAR);
  pdf.registerFont('bold', FONT_BOLD);
  const money = (n: number) => formatMoney(n, doc.currency);
  const left = 50;
  const width = 495;
  const muted = '#59636e';
  const ink = '#1f2328';

  // Seller (left) and the document's facts (right).
  const top = 50;
  pdf
    .font('bold')
    .fontSize(16)
    .fillColor(ink)
    .text(doc.seller?.name ?? doc.brand, left, top, { width: 280 });
  pdf.font('regular').fontSize(9).fillColor(muted);
  for (const l of doc.seller ? partyLines(doc.seller) : []) pdf.text(l, { width: 280 });
  const sellerBottom = pdf.y;

  const facts: [string, string][] = [
    [doc.kind === 'invoice' ? 'Invoice number' : 'Credit note number', doc.number],
    ['Issue date', formatDate(doc.issuedAt)],
  ];
  if (doc.refersTo) facts.push(['Corrects invoice', `${doc.refersTo.number} of ${formatDate(doc.refersTo.issuedAt)}`]);
  if (doc.period) facts.push(['Service period', `${formatDate(doc.period.start)} – ${formatDate(doc.period.end)}`]);
  facts.push(['Status', doc.status]);
  pdf
    .font('bold')
    .fontSize(20)
    .fillColor(ink)
    .text(doc.kind === 'invoice' ? 'Invoice' : 'Credit note', 345, top, { width: 200, align: 'right' });
  let y = pdf.y + 4;
  for (const [k, v] of facts) {
    pdf.font('regular').fontSize(9).fillColor(ink).text(`${k}: ${v}`, 295, y, { width: 250, align: 'right' });
    y = pdf.y + 3;
  }

  // Buyer.
  y = Math.max(sellerBottom, y) + 18;
  pdf
    .font('regular')
    .fontSize(8)
    .fillColor(muted)
    .text(doc.kind === 'invoice' ? 'Billed to' : 'Credited to', left, y);
  pdf
    .font('bold')
    .fontSize(10.5)
    .fillColor(ink)
    .text(doc.buyer?.name || 'Customer', left, pdf.y, { width: 300 });
  pdf.font('regular').fontSize(9).fillColor(ink);
  for (const l of doc.buyer ? partyLines(doc.buyer) : []) pdf.text(l, { width: 300 });

  // Lines.
  y = pdf.y + 22;
  const cols = { desc: left, qty: left + 280, unit: left + 320, amount: left + 405 };
  const header = (yy: number) => {
    pdf.font('bold').fontSize(8).fillColor(muted);
    pdf.text('Description', cols.desc, yy, { width: 270 });
    pdf.text('Qty', cols.qty, yy, { width: 35, align: 'right' });
    pdf.text('Unit price', cols.unit, yy, { width: 80, align: 'right' });
    pdf.text(doc.taxBreakdown.length ? 'Amount (net)' : 'Amount', cols.amount, yy, { width: 90, align: 'right' });
    pdf
      .moveTo(left, yy + 13)
      .lineTo(left + width, yy + 13)
      .lineWidth(0.6)
      .strokeColor('#d0d7de')
      .stroke();
    return yy + 19;
  };
  y = header(y);
  for (const l of doc.lines) {
    if (y > 700) {
      pdf.addPage();
      y = header(50);
    }
    pdf.font('regular').fontSize(9.5).fillColor(ink).text(l.description, cols.desc, y, { width: 270 });
    let rowBottom = pdf.y;
    if (l.periodStart && l.periodEnd) {
      pdf
        .fontSize(8)
        .fillColor(muted)
        .text(`${formatDate(new Date(l.periodStart))} – ${formatDate(new Date(l.periodEnd))}`, cols.desc, rowBottom, {
          width: 270,
        });
      rowBottom = pdf.y;
    }
    pdf.fontSize(9.5).fillColor(ink);
    pdf.text(String(l.quantity), cols.qty, y, { width: 35, align: 'right' });
    pdf.text(money(l.unitAmount), cols.unit, y, { width: 80, align: 'right' });
    pdf.text(money(l.amount), cols.amount, y, { width: 90, align: 'right' });
    y = rowBottom + 8;
  }
  pdf
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.6)
    .strokeColor('#d0d7de')
    .stroke();
  y += 8;

  // Totals.
  const total = (label: string, value: string, bold = false) => {
    pdf
      .font(bold ? 'bold' : 'regular')
      .fontSize(bold ? 11 : 9.5)
      .fillColor(ink);
    pdf.text(label, left + 200, y, { width: 200, align: 'right' });
    pdf.text(value, cols.amount, y, { width: 90, align: 'right' });
    y = pdf.y + 4;
  };
  total(doc.taxBreakdown.length ? 'Net amount' : 'Subtotal', money(doc.subtotal));
  for (const t of doc.taxBreakdown) total(`VAT ${percentLabel(t.rateBp)} on ${money(t.net)}`, money(t.tax));
  total(doc.kind === 'invoice' ? 'Total' : 'Total credited', money(doc.total), true);
  if (doc.kind === 'invoice') {
    if (doc.creditApplied && doc.creditApplied > 0) total('Account credit applied', money(-doc.creditApplied));
    if (doc.amountDue !== undefined) total('Amount due', money(doc.amountDue));
    if (doc.amountPaid !== undefined) total('Amount paid', money(doc.amountPaid));
  }

  // The regime's note (reverse charge, export), then the seller's footer.
  y += 10;
  if (doc.taxNote) {
    pdf.font('bold').fontSize(9.5).fillColor(ink).text(doc.taxNote, left, y, { width });
    y = pdf.y + 8;
  }
  const footer = doc.seller?.footerLines ?? [];
  if (footer.length) {
    pdf.font('regular').fontSize(8).fillColor(muted);
    pdf.text(footer.join('\n'), left, Math.max(y + 10, 740), { width });
  }
  pdf.end();
  return done;
}
