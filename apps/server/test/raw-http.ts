import { connect } from 'node:net';

/** An answer as it came over the wire: the status line, the header lines in order, the body's bytes. */
export type RawAnswer = { status: number; statusLine: string; headers: Array<[string, string]>; head: string; body: Buffer };

/**
 * Sends `request` (the exact bytes of one HTTP/1.1 request, closing the connection) to
 * 127.0.0.1:`port` and reads the answer to the end. For tests that compare answers byte for byte,
 * which an HTTP client library would normalise.
 */
export function rawRequest(port: number, request: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no complete answer: ${all.toString('latin1')}`));
      const [statusLine = '', ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      // Names in lower case for lookups; values exactly as sent (after the colon and one space).
      const headers = lines.map((l): [string, string] => {
        const at = l.indexOf(':');
        return [l.slice(0, at).toLowerCase(), l.slice(at + 1).replace(/^ /, '')];
      });
      const head = all.subarray(0, split).toString('latin1');
      resolve({ status: Number(statusLine.split(' ')[1]), statusLine, headers, head, body: all.subarray(split + 4) });
    });
    // Written, not ended: a client's half-close makes node:http abort a request still being answered.
    socket.write(request);
  });
}

export type RequestParts = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** The body's bytes; a string is sent as UTF-8. Content-Length is added unless `chunked`. */
  body?: string | Buffer;
  chunked?: boolean;
};

/** The bytes of one request that asks the server to close the connection after answering. */
export function requestBytes(port: number, r: RequestParts): Buffer {
  const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, 'utf8');
  let head = `${r.method ?? 'POST'} ${r.path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n`;
  for (const [k, v] of Object.entries(r.headers ?? {})) head += `${k}: ${v}\r\n`;
  if (body && r.chunked) {
    head += 'transfer-encoding: chunked\r\n\r\n';
    return Buffer.concat([
      Buffer.from(head, 'latin1'),
      Buffer.from(`${body.length.toString(16)}\r\n`),
      body,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
  }
  if (body) head += `content-length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}
