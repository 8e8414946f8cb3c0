import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookTransport, refusalOf, parseAllowList, type Connector, type Resolver } from './webhook-transport';

/**
 * The SSRF guard: refusals are decided after resolution, by an injected resolver, and the test's
 * connector fails the test if it is ever asked to open a connection to a refused address; the one
 * connection it allows goes to this test's own receiver on the loopback, when allow-listed.
 */

const REFUSED = [
  '127.0.0.1',
  '127.9.9.9',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.1.1',
  '100.64.0.1',
  '0.0.0.0',
  '::1',
  '::',
  'fc00::1',
  'fd00:ec2::254',
  'fe80::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
];
const PUBLIC = ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1'];

describe('refusalOf', () => {
  it.each(REFUSED)('refuses %s', (ip) => {
    expect(refusalOf(ip, [])).toBeDefined();
  });
  it.each(PUBLIC)('allows the public address %s', (ip) => {
    expect(refusalOf(ip, [])).toBeUndefined();
  });
  it('allows what the operator allow-lists, and only that', () => {
    const allow = parseAllowList(['10.1.0.0/16', '127.0.0.1']);
    expect(refusalOf('10.1.2.3', allow)).toBeUndefined();
    expect(refusalOf('::ffff:10.1.2.3', allow)).toBeUndefined();
    expect(refusalOf('127.0.0.1', allow)).toBeUndefined();
    expect(refusalOf('10.2.0.1', allow)).toBeDefined();
    expect(refusalOf('127.0.0.2', allow)).toBeDefined();
  });
  it('refuses the cloud metadata addresses even when their range is allow-listed', () => {
    const allow = parseAllowList(['169.254.0.0/16', 'fd00::/8']);
    expect(refusalOf('169.254.169.254', allow)).toBeDefined();
    expect(refusalOf('fd00:ec2::254', allow)).toBeDefined();
    expect(refusalOf('169.254.1.1', allow)).toBeUndefined();
  });
});

describe('sending', () => {
  let receiver: Server;
  let port: number;
  let received = 0;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received++;
      req.resume();
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/large') {
        res.writeHead(200);
        res.end('x'.repeat(1024 * 1024));
      } else if (req.url === '/slow') {
        // Never answers: the attempt's timeout ends it.
      } else {
        res.writeHead(200).end(`host ${req.headers.host}`);
      }
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
  });

  /** A connector that opens only connections to this test's receiver, and fails the test for any other. */
  const asked: string[] = [];
  const guardedConnector: Connector = (target) => {
    asked.push(`${target.address}:${target.port}`);
    if (target.address !== '127.0.0.1' || target.port !== port) {
      expect.fail(`asked to connect to ${target.address}:${target.port}`);
    }
    return connect({ host: target.address, port: target.port });
  };
  /** A resolver with fixed answers: never the network's DNS. */
  const resolver =
    (answers: Record<string, string[]>): Resolver =>
    async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const names: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'private.test': ['10.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['93.184.216.34', '192.168.0.10'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'receiver.test': ['127.0.0.1'],
  };
  const send = (url: string, allowPrivate: string[] = []) =>
    createWebhookTransport({
      resolve: resolver(names),
      connect: guardedConnector,
      allowPrivate,
      timeoutMs: 2000,
      maxResponseBytes: 4096,
    }).send({ url, headers: { 'content-type': 'application/json' }, body: '{}' });

  it.each([
    `http://127.0.0.1:PORT/hook`,
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:PORT/hook',
    'http://[fd00:ec2::254]/hook',
    'http://[::ffff:127.0.0.1]:PORT/hook',
    'http://loopback.test:PORT/hook',
    'http://private.test/hook',
    'http://metadata.test/hook',
    'http://mixed.test/hook',
    'http://mapped.test:PORT/hook',
    'http://unresolvable.test/hook',
  ])('refuses %s without opening a connection', async (template) => {
    const before = asked.length;
    await expect(send(template.replace('PORT', String(port)))).rejects.toThrow(/Refused|does not resolve/);
    expect(asked.length).toBe(before);
  });

  it('sends to the allow-listed loopback, to the resolved address with the name as Host', async () => {
    const before = received;
    const res = await send(`http://receiver.test:${port}/hook`, ['127.0.0.1/32']);
    expect(res).toEqual({ status: 200, body: `host receiver.test:${port}` });
    expect(received).toBe(before + 1);
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const res = await send(`http://127.0.0.1:${port}/redirect`, ['127.0.0.1/32']);
    expect(res.status).toBe(302);
  });

  it('reads at most the response cap of a large answer', async () => {
    const res = await send(`http://127.0.0.1:${port}/large`, ['127.0.0.1/32']);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(4096);
  });

  it('gives up on an answer that does not come within the timeout', async () => {
    await expect(send(`http://127.0.0.1:${port}/slow`, ['127.0.0.1/32'])).rejects.toThrow(/No answer within 2000 ms/);
  });
});
