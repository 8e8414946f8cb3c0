/**
 * The one e-mail layout, as MJML: the brand's logo (or its initial on the accent colour) and name,
 * a white card holding the message's blocks, and a footer. MJML turns it into table-based,
 * responsive HTML that mail clients render alike (Outlook included).
 */

export type BrandLook = { name: string; logoUrl?: string | undefined; accent: string; publicUrl: string };

/**
 * The building blocks of a message. Texts may hold `{{name}}` tokens (filled with escaped values
 * per e-mail) and `{{{name}}}` tokens (filled with HTML the renderer builds, e.g. table rows).
 */
export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'amount'; label: string; value: string }
  | { kind: 'text'; text: string }
  | { kind: 'note'; text: string }
  | { kind: 'facts'; rows: Array<[label: string, value: string]> }
  | { kind: 'items'; total: string }
  | { kind: 'button'; href: string; label: string }
  | { kind: 'fallback-link'; href: string }
  | { kind: 'divider' };

export const COLORS = {
  text: '#1a1f36',
  muted: '#697386',
  border: '#e3e8ee',
  page: '#f6f9fc',
  card: '#ffffff',
  tint: '#f6f9fc',
};
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** For text and attribute values written into the MJML source (the brand's name and logo address). */
export const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function header(look: BrandLook): string {
  const name = escapeXml(look.name);
  if (look.logoUrl) {
    return `<mj-image src="${escapeXml(look.logoUrl)}" alt="${name}" height="36px" width="160px" align="left" padding="0" />`;
  }
  const initial = escapeXml(Array.from(look.name.trim())[0]?.toUpperCase() ?? '•');
  return `<mj-text padding="0" font-size="18px" font-weight="650" line-height="32px" color="${COLORS.text}">
    <span style="display:inline-block;width:32px;height:32px;line-height:32px;border-radius:8px;background:${look.accent};color:#ffffff;text-align:center;font-size:17px;vertical-align:middle;margin-right:10px">${initial}</span><span style="vertical-align:middle">${name}</span>
  </mj-text>`;
}

const cell = 'padding:10px 0;border-bottom:1px solid ' + COLORS.border;

function block(b: Block, look: BrandLook): string {
  switch (b.kind) {
    case 'title':
      return `<mj-text padding="0 0 12px" font-size="22px" line-height="30px" font-weight="650">${b.text}</mj-text>`;
    case 'amount':
      return `<mj-text padding="4px 0 6px" color="${COLORS.muted}" font-size="13px" line-height="18px">${b.label}</mj-text>
      <mj-text padding="0 0 24px" font-size="34px" line-height="40px" font-weight="650" css-class="amount">${b.value}</mj-text>`;
    case 'text':
      return `<mj-text padding="0 0 16px">${b.text}</mj-text>`;
    case 'note':
      return `<mj-text padding="0 0 12px" color="${COLORS.muted}" font-size="13px" line-height="20px">${b.text}</mj-text>`;
    case 'facts':
      return `<mj-table padding="0 0 20px" font-size="14px" line-height="20px" color="${COLORS.text}">
        ${b.rows
          .map(
            ([label, value]) =>
              `<tr><td style="${cell};color:${COLORS.muted}">${label}</td><td style="${cell};text-align:right;font-weight:600">${value}</td></tr>`,
          )
          .join('\n')}
      </mj-table>`;
    case 'items': {
      const th = `${cell};color:${COLORS.muted};font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;white-space:nowrap`;
      return `<mj-table padding="0 0 24px" font-size="14px" line-height="20px" color="${COLORS.text}">
        <tr><th style="${th};text-align:left">Description</th><th style="${th};text-align:right;padding-left:12px">Qty</th><th style="${th};text-align:right;padding-left:12px">Amount</th></tr>
        {{{items}}}
        <tr><td colspan="2" style="padding:14px 0 0;font-weight:650">Total paid</td><td style="padding:14px 0 0;text-align:right;font-weight:650;white-space:nowrap">${b.total}</td></tr>
      </mj-table>`;
    }
    case 'button':
      return `<mj-button href="${b.href}" background-color="${look.accent}" color="#ffffff" font-size="15px" font-weight="600" border-radius="8px" inner-padding="13px 24px" padding="8px 0 24px" align="left">${b.label}</mj-button>`;
    case 'fallback-link':
      return `<mj-text padding="0 0 12px" color="${COLORS.muted}" font-size="13px" line-height="20px">If the button does not work, paste this address into your browser:<br /><a href="${b.href}" style="color:${look.accent};word-break:break-all">${b.href}</a></mj-text>`;
    case 'divider':
      return `<mj-divider padding="8px 0 20px" border-width="1px" border-color="${COLORS.border}" />`;
  }
}

/** The whole MJML document of one template (compiled once, then filled per e-mail). */
export function layoutMjml(look: BrandLook, blocks: Block[], footerNote: string): string {
  const brand = escapeXml(look.name);
  const site = escapeXml(look.publicUrl);
  const host = escapeXml(look.publicUrl.replace(/^https?:\/\//, ''));
  return `<mjml lang="en">
  <mj-head>
    <mj-title>{{subject}}</mj-title>
    <mj-preview>{{preview}}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="15px" line-height="24px" color="${COLORS.text}" />
    </mj-attributes>
    <mj-style>
      a { color: ${look.accent}; }
      @media only screen and (max-width: 480px) { .amount div { font-size: 30px !important; } }
    </mj-style>
  </mj-head>
  <mj-body background-color="${COLORS.page}" width="600px">
    <mj-wrapper padding="0 12px">
    <mj-section padding="32px 24px 20px"><mj-column>${header(look)}</mj-column></mj-section>
    <mj-section background-color="${COLORS.card}" border-radius="12px" border="1px solid ${COLORS.border}" padding="32px 24px 16px">
      <mj-column>
        ${blocks.map((b) => block(b, look)).join('\n        ')}
      </mj-column>
    </mj-section>
    <mj-section padding="20px 24px 40px">
      <mj-column>
        <mj-text align="center" color="${COLORS.muted}" font-size="12px" line-height="18px" padding="0">${footerNote}<br /><a href="${site}" style="color:${COLORS.muted}">${brand} · ${host}</a></mj-text>
      </mj-column>
    </mj-section>
    </mj-wrapper>
  </mj-body>
</mjml>`;
}
