import { lookup } from 'node:dns/promises';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import ipaddr from 'ipaddr.js';

/** Answers a host name's addresses (an IP literal answers itself). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
/** Opens a connection to an address already checked: never to a name, so nothing resolves twice. */
export type Connector = (target: { address: string; family: 4 | 6; port: number; tls: boolean; servername: string }) => Duplex;

export type TransportOptions = {
  resolve?: Resolver;
  connect?: Connector;
  /** Ranges the operator allows although they are private (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate?: readonly string[];
  timeoutMs: number;
  /** The most of an answer's body that is read (the rest is dropped, the connection closed). */
  maxResponseBytes: number;
};

export type SendResult = { status: number; body: string };

/** A request that was not sent because of where it would have gone. */
export class WebhookRefusedError extends Error {}

/**
 * The ranges no webhook goes to unless allowed: loopback, private (RFC 1918, fc00::/7), link-local
 * and the cloud metadata addresses in them, unspecified, CGNAT, multicast and reserved; an
 * IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
const REFUSED: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
  '64:ff9b::/96',
  '2001:db8::/32',
].map((c) => ipaddr.parseCIDR(c));

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

function inRange(ip: ipaddr.IPv4 | ipaddr.IPv6, [range, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  return ip.kind() === range.kind() && ip.match(range, bits);
}

/** Never reachable, whatever the allow-list says: the cloud providers' instance metadata services. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString());

/** Parses the allow-list (CIDR ranges or single addresses); throws on a bad entry. */
export function parseAllowList(entries: readonly string[]): Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> {
  return entries.map((e) => {
    const entry = e.trim();
    if (entry.includes('/')) {
      const [ip, bits] = ipaddr.parseCIDR(entry);
      const n = normalise(ip.toString());
      return [n, n.kind() === ip.kind() ? bits : bits - 96];
    }
    const ip = normalise(entry);
    return [ip, ip.kind() === 'ipv4' ? 32 : 128];
  });
}

/** Why `address` is refused, or undefined when a webhook may go there. */
export function refusalOf(address: string, allow: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = normalise(address);
  if (METADATA.includes(ip.toNormalizedString())) return `${address} is a cloud metadata address`;
  if (allow.some((r) => inRange(ip, r))) return undefined;
  if (REFUSED.some((r) => inRange(ip, r))) return `${address} is a private, loopback, link-local or reserved address`;
  return undefined;
}

const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const systemConnector: Connector = (t) =>
  t.tls
    ? tlsConnect({ host: t.address, port: t.port, servername: t.servername, ALPNProtocols: ['http/1.1'] })
    : netConnect({ host: t.address, port: t.port });

/**
 * Sends one webhook request: the host is resolved here, every address it resolves to is checked
 * (one refused address refuses the request: a name must not mix public and private answers), and
 * the connection goes to the checked address. Redirects are answers like any other (not followed).
 */
export function createWebhookTransport(options: TransportOptions) {
  const resolve = options.resolve ?? systemResolver;
  const connect = options.connect ?? systemConnector;
  const allow = parseAllowList(options.allowPrivate ?? []);

  async function target(url: URL) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = ipaddr.isValid(host)
      ? [{ address: host, family: (ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4) as 4 | 6 }]
      : await resolve(host);
    if (addresses.length === 0) throw new WebhookRefusedError(`${host} does not resolve`);
    for (const a of addresses) {
      const why = refusalOf(a.address, allow);
      if (why) throw new WebhookRefusedError(host === a.address ? `Refused: ${why}` : `Refused: ${host} resolves to ${why}`);
    }
    return addresses[0]!;
  }

  async function send(req: { url: string; headers: Record<string, string>; body: string }): Promise<SendResult> {
    const url = new URL(req.url);
    const tls = url.protocol === 'https:';
    const chosen = await target(url);
    const port = url.port ? Number(url.port) : tls ? 443 : 80;
    const servername = ipaddr.isValid(url.hostname) ? '' : url.hostname;
    return new Promise<SendResult>((resolvePromise, reject) => {
      let settled = false;
      const finish = (err: Error | undefined, result?: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolvePromise(result!);
      };
      const r = request({
        method: 'POST',
        host: url.hostname,
        port,
        path: `${url.pathname}${url.search}`,
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)), 'user-agent': 'portal-webhooks/1' },
        // No agent: with one, Node would open its own connection (and resolve the name again).
        createConnection: () =>
          connect({ address: chosen.address, family: chosen.family, port, tls, servername }) as ReturnType<typeof netConnect>,
      });
      const timer = setTimeout(() => {
        r.destroy();
        finish(new Error(`No answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      r.on('error', (err) => finish(err));
      r.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= options.maxResponseBytes) return;
          const room = options.maxResponseBytes - size;
          chunks.push(chunk.subarray(0, room));
          size += Math.min(room, chunk.length);
          // Enough read: the rest of a large answer is not waited for.
          if (size >= options.maxResponseBytes) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (err) => finish(err));
        res.on('close', done);
      });
      r.end(req.body);
    });
  }

  return { send };
}
export type WebhookTransport = ReturnType<typeof createWebhookTransport>;
