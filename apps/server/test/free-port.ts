import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports below this are the system's (and commonly configured services'). */
const LOWEST = 10_000;

/**
 * The lowest port of the kernel's ephemeral range, where every outgoing connection takes its
 * source port: a port found free there (listen on 0) can be taken again by any connection, of
 * this run or of another beside it, before the server that was given it binds it.
 */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/**
 * A port free on 127.0.0.1 now, for a server process to be started on: a random one below the
 * ephemeral range. Another run beside this one may still pick the same port in the moment
 * between; callers that start a server retry with a new port when it is refused (`EADDRINUSE`).
 */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  for (;;) {
    const port = randomInt(LOWEST, end);
    if (await listenable(port)) return port;
  }
}

/** Whether a server's output says its port was taken (start it again on another). */
export const portTaken = (output: string) => /EADDRINUSE/.test(output);
