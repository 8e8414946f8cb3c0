import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogOutput, logLinesDropped } from './log-output';
import { prettyFormatter } from './log-pretty';

const line = (msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 24, 9, 30, 5), pid: 1, hostname: 'h', msg, ...extra }) + '\n';
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A stream standing for a pipe: `stalled` holds every write's completion until `resume()`. */
function pipe() {
  const written: string[] = [];
  let held: (() => void)[] = [];
  let stalled = false;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      if (stalled) held.push(() => done());
      else done();
    },
  });
  return {
    stream,
    written,
    stall: () => (stalled = true),
    resume() {
      stalled = false;
      for (const done of held.splice(0)) done();
      held = [];
    },
  };
}

describe('LogOutput', () => {
  it('writes lines in order, after the current tick (never inside the logging call)', async () => {
    const p = pipe();
    const out = new LogOutput({ stream: p.stream });
    out.write(line('one'));
    out.write(line('two'));
    expect(p.written).toEqual([]);
    await out.flush(5_000);
    expect(p.written.join('')).toBe(line('one') + line('two'));
  });

  it('never waits on a stalled reader: it buffers up to its bound, then drops and counts, then reports the count', async () => {
    const p = pipe();
    const out = new LogOutput({ stream: p.stream, maxBufferedBytes: 1_000 });
    out.write(line('first'));
    await tick();
    p.stall();
    out.write(line('second'));
    await tick();
    // The reader takes nothing more: each call still returns at once.
    const before = logLinesDropped();
    for (let i = 0; i < 100; i++) expect(out.write(line(`line ${i}`))).toBe(true);
    expect(out.dropped).toBeGreaterThan(80);
    expect(logLinesDropped() - before).toBe(out.dropped);
    // flush gives up after its timeout rather than waiting for the reader.
    await out.flush(50);

    p.resume();
    await out.flush(5_000);
    const text = p.written.join('');
    expect(text).toContain(`"msg":"${out.dropped} log lines dropped: the log output was not being read"`);
    expect(text).toContain('"msg":"line 0"');
    expect(text).not.toContain('"msg":"line 99"');
  });

  it('stops writing when the reader goes away (EPIPE), without throwing', async () => {
    let calls = 0;
    const stream = new Writable({
      write(_chunk, _enc, done) {
        calls++;
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const out = new LogOutput({ stream });
    out.write(line('lost'));
    await out.flush(5_000);
    out.write(line('also lost'));
    await out.flush(5_000);
    expect(calls).toBe(1);
    expect(out.dropped).toBe(1);
  });

  it('formats lines and prints text as it is, in order', async () => {
    const p = pipe();
    const out = new LogOutput({ stream: p.stream, format: (l) => `> ${JSON.parse(l).msg}\n` });
    out.write(line('before'));
    out.print('BANNER\n');
    out.write(line('after'));
    await out.flush(5_000);
    expect(p.written.join('')).toBe('> before\nBANNER\n> after\n');
  });
});

describe('the readable (terminal) format', () => {
  const format = prettyFormatter({ colors: false });

  it('shows time, level and message, with extra fields after it', () => {
    expect(format(line('Sign-in link for a@example.com: http://localhost:3000/auth?link=x'))).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}Sign-in link for a@example.com: http:\/\/localhost:3000\/auth\?link=x\n$/,
    );
    expect(format(line('E-mail written to /o/1.eml', { to: 'a@example.com', file: '/o/1.eml' }))).toMatch(
      /INFO {2}E-mail written to \/o\/1.eml to=a@example.com\n$/,
    );
  });

  it('makes one line of each request: method, path, status and time', () => {
    expect(format(line('incoming request', { reqId: 'req-1', req: { method: 'GET', url: '/api/health/live' } }))).toBe('');
    expect(format(line('request completed', { reqId: 'req-1', res: { statusCode: 200 }, responseTime: 1.234 }))).toMatch(
      /INFO {2}GET \/api\/health\/live 200 1\.2 ms\n$/,
    );
  });

  it('shows an error with its stack, and a line that is not JSON as it is', () => {
    const text = format(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'boom',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    );
    expect(text).toMatch(/ERROR boom\n {4}Error: boom\n {8}at x\n$/);
    expect(format('plain text')).toBe('plain text\n');
  });

  it('colours only when asked', () => {
    expect(format(line('x'))).not.toContain('\x1b[');
    expect(prettyFormatter({ colors: true })(line('x'))).toContain('\x1b[');
  });
});
