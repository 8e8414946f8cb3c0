import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of VIES's REST `check-vat-number` service: POST `{ countryCode, vatNumber }`
 * answers `{ valid, name }` from the numbers it was told about (any other number is invalid).
 * `down = true` makes it answer as VIES does when a member state's service is unavailable (no
 * `valid`, an error); `refuse = true` drops the connection. Tests never call the real VIES.
 */
export async function startViesStandIn() {
  const valid = new Map<string, string>();
  const state = { down: false, refuse: false, calls: [] as string[] };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (state.refuse) {
        req.socket.destroy();
        return;
      }
      let parsed: { countryCode?: string; vatNumber?: string } = {};
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const id = `${parsed.countryCode ?? ''}${parsed.vatNumber ?? ''}`;
      state.calls.push(id);
      res.setHeader('content-type', 'application/json');
      if (state.down) {
        res.writeHead(200).end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] }));
        return;
      }
      const name = valid.get(id);
      res.writeHead(200).end(
        JSON.stringify({
          countryCode: parsed.countryCode,
          vatNumber: parsed.vatNumber,
          requestDate: new Date().toISOString(),
          valid: name !== undefined,
          name: name ?? '---',
          address: '---',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/check-vat-number`,
    state,
    /** A number VIES knows as valid (country prefix included), with its registered name. */
    addValid(id: string, name: string) {
      valid.set(id, name);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
