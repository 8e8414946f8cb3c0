// An open-loop load: requests are offered at a steady rate whether or not earlier ones were
// answered, over a pool of keep-alive connections (a request waits for a free one). Latency is
// measured from the time a request was due, not from when a connection took it, so a stalled
// server shows as latency instead of as a lower offered rate (no coordinated omission).
import { connect, type Socket } from 'node:net';
import { encodeRequest, percentile, responseEnd, type Req } from './load';

export type SteadyOptions = {
  port: number;
  /** Requests offered per second. */
  rate: number;
  connections: number;
  durationMs: number;
  warmupMs: number;
  next: (seq: number) => Req;
};

export type SteadyResult = {
  offered: number;
  answered: number;
  /** Answers outside 2xx, transport errors and requests unanswered 10 s after the end. */
  errors: number;
  p50: number;
  p99: number;
  max: number;
};

type Pending = { due: number; bytes: Buffer; measured: boolean };

export async function runSteady(opts: SteadyOptions): Promise<SteadyResult> {
  const t0 = performance.now();
  const measureFrom = t0 + opts.warmupMs;
  const end = measureFrom + opts.durationMs;
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  let offered = 0;
  let answered = 0;
  let errors = 0;
  let seq = 0;
  const queue: Pending[] = [];
  const idle: Array<(p: Pending) => void> = [];
  let outstanding = 0;
  let allDone: () => void = () => {};
  const finished = new Promise<void>((r) => (allDone = r));
  let scheduling = true;

  const settle = (p: Pending, ok: boolean) => {
    outstanding--;
    if (p.measured) {
      answered += ok ? 1 : 0;
      if (!ok) errors++;
      latencies.push(performance.now() - p.due);
    }
    if (!scheduling && outstanding === 0) allDone();
  };

  const sockets: Socket[] = [];
  for (let i = 0; i < opts.connections; i++) {
    let current: Pending | undefined;
    let buf: Buffer = Buffer.alloc(0);
    const s = connect({ host: '127.0.0.1', port: opts.port, noDelay: true });
    sockets.push(s);
    const take = (p: Pending) => {
      current = p;
      s.write(p.bytes);
    };
    const free = () => {
      const p = queue.shift();
      if (p) take(p);
      else idle.push(take);
    };
    s.on('connect', free);
    s.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const e = responseEnd(buf);
      if (!e || !current) return;
      const status = Number(buf.toString('latin1', 9, 12));
      buf = buf.subarray(e.length);
      const p = current;
      current = undefined;
      settle(p, status >= 200 && status < 300);
      free();
    });
    s.on('error', () => {});
    s.on('close', () => {
      if (current) settle(current, false);
      current = undefined;
    });
  }

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (t0 + seq * interval <= now && t0 + seq * interval < end) {
        const due = t0 + seq * interval;
        const p: Pending = { due, bytes: encodeRequest(opts.port, opts.next(seq)), measured: due >= measureFrom };
        seq++;
        outstanding++;
        if (p.measured) offered++;
        const conn = idle.shift();
        if (conn) conn(p);
        else queue.push(p);
      }
      if (t0 + seq * interval >= end) return resolve();
      setTimeout(tick, Math.max(0, t0 + seq * interval - performance.now()));
    };
    tick();
  });
  scheduling = false;
  if (outstanding === 0) allDone();
  await Promise.race([finished, new Promise((r) => setTimeout(r, 10_000).unref())]);
  errors += offered - latencies.length;
  for (const s of sockets) s.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return {
    offered,
    answered,
    errors,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}
