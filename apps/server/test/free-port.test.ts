import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, portTaken } from './free-port';

describe('freePort', () => {
  it('answers a port below the ephemeral range that a server can listen on', async () => {
    const port = await freePort();
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    expect(port).toBeGreaterThanOrEqual(10_000);
    expect(port).toBeLessThan(low);
    const srv = createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => srv.close(resolve));
  });

  it('tells a taken port from other start-up failures', () => {
    expect(portTaken('listen EADDRINUSE: address already in use 127.0.0.1:39467')).toBe(true);
    expect(portTaken('DATABASE_URL is not a valid URL')).toBe(false);
  });
});
