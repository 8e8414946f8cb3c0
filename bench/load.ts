// A small, bounded HTTP/1.1 load generator (no dependency): N keep-alive connections, each with one
// request in flight (closed loop), for a fixed duration after a warm-up. Latency is measured per
// request with performance.now(), from the write of the request to the last byte of the answer.
//
// Two clients: 'raw' (default) writes pre-encoded requests on net sockets and parses only the
// status line and the framing (Content-Length or chunked); it costs a fraction of node:http's CPU,
// which matters when the generator shares 2 cores with the server and PostgreSQL. 'http' uses
// node:http with a keep-alive Agent (BENCH_CLIENT=http), to cross-check the raw client.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

export type Req = { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

export type LoadOptions = {
  port: number;
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** The request for the `seq`-th call (over all connections, warm-up included). */
  next: (seq: number) => Req;
  /** Statuses that count as success (default: 2xx). */
  ok?: (status: number) => boolean;
  client?: 'raw' | 'http';
  /** Processes whose CPU time is reported (the server under test). */
  serverPid?: number;
};

export type LoadResult = {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /**
   * CPU use during the measured window, in % of one core (200 = both cores of a 2-core host).
   * `serverLoop` is the server's main thread alone (its event loop): what one process cannot spread
   * over more cores, where `server` also counts its other threads (the thread pool, GC helpers).
   */
  cpu: { server: number; serverLoop: number; client: number; host: number; hostCores: number };
};

const HOST = '127.0.0.1';

export function encodeRequest(port: number, r: Req): Buffer {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  let head = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${HOST}:${port}\r\nconnection: keep-alive\r\naccept: application/json\r\n`;
  for (const [k, v] of Object.entries(r.headers ?? {})) head += `${k}: ${v}\r\n`;
  if (body) head += `content-type: application/json\r\ncontent-length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Runs the load and answers throughput and latency of the requests started in the measured window. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const ok = opts.ok ?? ((s: number) => s >= 200 && s < 300);
  const client = opts.client ?? (process.env.BENCH_CLIENT === 'http' ? 'http' : 'raw');
  const t0 = performance.now();
  const measureFrom = t0 + opts.warmupMs;
  const measureTo = measureFrom + opts.durationMs;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let seq = 0;
  let cpuStart: CpuSnapshot | undefined;
  const cpuTimer = setTimeout(() => (cpuStart = cpuSnapshot(opts.serverPid)), Math.max(0, measureFrom - performance.now()));

  /** Called once per finished request; status 0 is a transport error. */
  const record = (started: number, status: number) => {
    if (started < measureFrom || started >= measureTo) return;
    latencies.push(performance.now() - started);
    const k = status === 0 ? 'transport error' : String(status);
    statuses[k] = (statuses[k] ?? 0) + 1;
    if (!ok(status)) errors++;
  };

  const loop = client === 'raw' ? rawConnection : httpConnection(opts.connections);
  const conns = Array.from({ length: opts.connections }, () =>
    loop(opts.port, () => (performance.now() < measureTo ? opts.next(seq++) : undefined), record),
  );
  // Bounded: whatever has not answered 10 s after the end is abandoned and counted as an error.
  const drained = await Promise.race([
    Promise.all(conns.map((c) => c.done)).then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), Math.max(0, measureTo - performance.now()) + 10_000).unref()),
  ]);
  if (!drained) {
    for (const c of conns) {
      if (c.inFlightSince !== undefined && c.inFlightSince >= measureFrom && c.inFlightSince < measureTo) {
        errors++;
        statuses.timeout = (statuses.timeout ?? 0) + 1;
      }
      c.abort();
    }
  }
  clearTimeout(cpuTimer);
  const cpuEnd = cpuSnapshot(opts.serverPid);
  const seconds = opts.durationMs / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors,
    statuses,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    cpu: cpuStart ? cpuUse(cpuStart, cpuEnd) : { server: NaN, serverLoop: NaN, client: NaN, host: NaN, hostCores: cpuEnd.cores },
  };
}

type Conn = { done: Promise<void>; inFlightSince: number | undefined; abort: () => void };
type NextFn = () => Req | undefined;
type RecordFn = (started: number, status: number) => void;

/** Requests reused from a pool are encoded once. */
const encoded = new WeakMap<Req, Buffer>();
function encodedRequest(port: number, r: Req): Buffer {
  let b = encoded.get(r);
  if (!b) encoded.set(r, (b = encodeRequest(port, r)));
  return b;
}

/** One keep-alive socket, one request at a time; reconnects after a transport error. */
function rawConnection(port: number, next: NextFn, record: RecordFn): Conn {
  const conn: Conn = { done: Promise.resolve(), inFlightSince: undefined, abort: () => {} };
  let socket: Socket | undefined;
  let aborted = false;
  conn.abort = () => {
    aborted = true;
    socket?.destroy();
  };
  conn.done = new Promise<void>((resolve) => {
    let buf: Buffer = Buffer.alloc(0);
    let started = 0;

    const open = () => {
      buf = Buffer.alloc(0);
      const s = connect({ host: HOST, port, noDelay: true });
      socket = s;
      s.on('connect', send);
      s.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        const end = responseEnd(buf);
        if (end === undefined) return;
        const status = Number(buf.toString('latin1', 9, 12));
        buf = buf.subarray(end.length);
        conn.inFlightSince = undefined;
        record(started, status);
        if (end.close) {
          s.destroy();
          open();
        } else send();
      });
      s.on('error', () => {});
      s.on('close', () => {
        if (socket !== s) return;
        if (conn.inFlightSince !== undefined) {
          conn.inFlightSince = undefined;
          record(started, 0);
          if (!aborted) return open();
        }
        resolve();
      });
    };
    const send = () => {
      const r = aborted ? undefined : next();
      if (!r) {
        socket?.end();
        return resolve();
      }
      started = performance.now();
      conn.inFlightSince = started;
      socket!.write(encodedRequest(port, r));
    };
    open();
  });
  return conn;
}

/** Where the first complete response in `buf` ends, or undefined while it is incomplete. */
export function responseEnd(buf: Buffer): { length: number; close: boolean } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const close = /\r\nconnection: *close/.test(head);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return { length: bodyStart, close };
  const cl = /\r\ncontent-length: *(\d+)/.exec(head);
  if (cl) {
    const length = bodyStart + Number(cl[1]);
    return buf.length >= length ? { length, close } : undefined;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    let pos = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', pos);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.toString('latin1', pos, lineEnd), 16);
      if (size === 0) {
        // No trailers are expected: the last chunk is followed by an empty line.
        const end = buf.indexOf('\r\n', lineEnd + 2);
        return end < 0 ? undefined : { length: end + 2, close };
      }
      pos = lineEnd + 2 + size + 2;
      if (buf.length < pos) return undefined;
    }
  }
  // No framing: the body ends when the server closes (not expected from Fastify).
  return undefined;
}

/** The node:http client: one request at a time per loop, over a keep-alive Agent of N sockets. */
function httpConnection(connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return (port: number, next: NextFn, record: RecordFn): Conn => {
    const conn: Conn = { done: Promise.resolve(), inFlightSince: undefined, abort: () => agent.destroy() };
    conn.done = (async () => {
      for (let r = next(); r; r = next()) {
        const started = performance.now();
        conn.inFlightSince = started;
        const status = await new Promise<number>((resolve) => {
          const body = r.body === undefined ? undefined : Buffer.from(r.body);
          const req = httpRequest(
            {
              host: HOST,
              port,
              method: r.method,
              path: r.path,
              agent,
              headers: {
                accept: 'application/json',
                ...r.headers,
                ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
              },
            },
            (res) => {
              res.on('data', () => {});
              res.on('end', () => resolve(res.statusCode ?? 0));
              res.on('error', () => resolve(0));
            },
          );
          req.on('error', () => resolve(0));
          req.end(body);
        });
        conn.inFlightSince = undefined;
        record(started, status);
      }
    })();
    return conn;
  };
}

type CpuSnapshot = {
  at: number;
  client: NodeJS.CpuUsage;
  serverTicks: number;
  serverLoopTicks: number;
  hostBusy: number;
  hostTotal: number;
  cores: number;
};

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** A process's CPU ticks (all its threads), or with `thread` that thread's alone. */
function procTicks(pid: number | undefined, thread?: number): number {
  if (!pid) return NaN;
  try {
    // Fields after the ")" that ends the command name: state is field 3, utime 14, stime 15.
    const stat = readFileSync(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}

function hostTicks(): { busy: number; total: number; cores: number } {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    const cpu = lines[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = cpu[3]! + cpu[4]!;
    return { busy: total - idle, total, cores: lines.filter((l) => /^cpu\d/.test(l)).length };
  } catch {
    return { busy: NaN, total: NaN, cores: NaN };
  }
}

function cpuSnapshot(serverPid: number | undefined): CpuSnapshot {
  const h = hostTicks();
  return {
    at: performance.now(),
    client: process.cpuUsage(),
    serverTicks: procTicks(serverPid),
    // A process's main thread has the process's id.
    serverLoopTicks: procTicks(serverPid, serverPid),
    hostBusy: h.busy,
    hostTotal: h.total,
    cores: h.cores,
  };
}

function cpuUse(a: CpuSnapshot, b: CpuSnapshot) {
  const wallMs = b.at - a.at;
  const c = process.cpuUsage(a.client);
  const percent = (ticks: number) => (ticks * (1000 / CLOCK_TICKS) * 100) / wallMs;
  return {
    server: percent(b.serverTicks - a.serverTicks),
    serverLoop: percent(b.serverLoopTicks - a.serverLoopTicks),
    client: ((c.user + c.system) / 1000 / wallMs) * 100,
    host: ((b.hostBusy - a.hostBusy) / (b.hostTotal - a.hostTotal)) * 100 * b.cores,
    hostCores: b.cores,
  };
}
