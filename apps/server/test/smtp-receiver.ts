import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { envelopeFrom: string | null; envelopeTo: string[]; raw: string };

/**
 * A real SMTP server (smtp-server) on 127.0.0.1, on an ephemeral port unless one is given (to come
 * back on the same address after an outage): no authentication, no STARTTLS, every message kept
 * raw, as delivered.
 */
export async function startSmtpReceiver(port = 0) {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

/** A leaf part: its decoded text, and its bytes (an attachment's file) with its file name if it has one. */
export type ParsedPart = { contentType: string; body: string; bytes: Buffer; filename?: string };
export type ParsedMail = { headers: Map<string, string>; parts: ParsedPart[] };

/**
 * Parses an RFC 822 message far enough to check what a person's mail client would show: decoded
 * headers (RFC 2047 encoded words), and the leaf parts of any multipart tree with their transfer
 * encoding (quoted-printable, base64) undone.
 */
export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitEntity(raw);
  return { headers, parts: leafParts(headers, body) };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded lines continue the previous header.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function leafParts(headers: Map<string, string>, body: string): ParsedPart[] {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((s) => !s.startsWith('--'))
      .flatMap((s) => {
        const part = splitEntity(s.replace(/^\n/, ''));
        return leafParts(part.headers, part.body);
      });
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const filename = /filename="?([^";]+)"?/i.exec(headers.get('content-disposition') ?? '')?.[1];
  return [
    {
      contentType: contentType.split(';')[0]!.trim().toLowerCase(),
      body: decodeBody(body, encoding).replace(/\n$/, ''),
      bytes:
        encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(decodeBody(body, encoding), 'utf8'),
      ...(filename ? { filename } : {}),
    },
  ];
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
