import type { Writable } from 'node:stream';

/** Lines dropped by every LogOutput of this process, for the metrics. */
let droppedInProcess = 0;
export const logLinesDropped = () => droppedInProcess;

/** 4 MiB of log lines waiting for a slow reader; beyond that, lines are dropped and counted. */
const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export type LogOutputOptions = {
  /** Where lines go: process.stdout in the server. */
  stream: Writable;
  /** Turns one JSON log line into what is written (a terminal's readable format); default: as is. */
  format?: (line: string) => string;
  maxBufferedBytes?: number;
};

/**
 * The logger's destination (pino calls `write` with one JSON line at a time). It never blocks the
 * event loop: lines are queued in memory and handed to the stream one batch at a time, after the
 * current tick, so formatting and writing stay off the request path. A reader that stalls fills
 * the queue up to a bound, after which lines are dropped and counted (and the count is logged once
 * the reader catches up); a reader that goes away (EPIPE) ends writing, never the process. A
 * synchronous writer would instead retry a full pipe in a sleep loop on the main thread, where no
 * request, signal handler or force-exit timer runs again.
 */
export class LogOutput {
  /** Lines dropped because the reader stalled or went away. */
  dropped = 0;
  private readonly stream: Writable;
  private readonly format: (line: string) => string;
  private readonly maxBytes: number;
  /** JSON lines from the logger, or text to print as it is. */
  private queue: (string | { text: string })[] = [];
  private queuedBytes = 0;
  private writing = false;
  private scheduled = false;
  private broken = false;
  private droppedReported = 0;
  private idle: (() => void)[] = [];

  constructor(options: LogOutputOptions) {
    this.stream = options.stream;
    this.format = options.format ?? ((line) => line);
    this.maxBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    // Without a listener an EPIPE would be thrown as an uncaught exception.
    this.stream.on('error', () => this.breakOff());
  }

  /** Queues one line (pino's destination interface). Never throws, never waits. */
  write(line: string): boolean {
    this.enqueue(line, line.length);
    return true;
  }

  /** Queues text shown as it is (the start-up banner), in order with the log lines. */
  print(text: string) {
    this.enqueue({ text }, text.length);
  }

  /**
   * Resolves once every queued line has been handed to the operating system, or after `timeoutMs`
   * (a stalled reader must not hold up an exit).
   */
  flush(timeoutMs: number): Promise<void> {
    if (this.settled()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private enqueue(item: string | { text: string }, size: number) {
    if (this.broken || this.queuedBytes + size > this.maxBytes) {
      this.dropped++;
      droppedInProcess++;
      return;
    }
    this.queue.push(item);
    this.queuedBytes += size;
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => this.pump());
    }
  }

  private settled() {
    return this.broken || (!this.writing && this.queue.length === 0);
  }

  private pump() {
    this.scheduled = false;
    if (this.broken || this.writing) return;
    if (this.queue.length === 0) return this.notifyIdle();
    const lines = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    let text = '';
    if (this.dropped > this.droppedReported) {
      const n = this.dropped - this.droppedReported;
      this.droppedReported = this.dropped;
      text += this.format(
        JSON.stringify({ level: 40, time: Date.now(), msg: `${n} log lines dropped: the log output was not being read` }) + '\n',
      );
    }
    for (const line of lines) text += typeof line === 'string' ? this.format(line) : line.text;
    this.writing = true;
    try {
      this.stream.write(text, (err) => {
        this.writing = false;
        if (err) return this.breakOff();
        this.pump();
      });
    } catch {
      this.breakOff();
    }
  }

  private breakOff() {
    if (this.broken) return;
    this.broken = true;
    this.dropped += this.queue.length;
    droppedInProcess += this.queue.length;
    this.queue = [];
    this.queuedBytes = 0;
    this.notifyIdle();
  }

  private notifyIdle() {
    for (const done of this.idle.splice(0)) done();
  }
}

/** Pretty output for a person at a terminal, JSON lines for pipes, files and log collectors. */
export function wantsReadableLogs(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}
