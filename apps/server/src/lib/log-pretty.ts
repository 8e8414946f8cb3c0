/**
 * A readable form of the server's JSON log lines for a person at a terminal: one short line per
 * event, one line per request (method, path, status, time) instead of two JSON objects, errors
 * with their stack. Pipes, files and log collectors keep the JSON (see log-output.ts).
 */

const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[90m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[35m'],
};
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
/** Requests whose start was seen and whose end is awaited; bounded against requests that never end. */
const MAX_OPEN_REQUESTS = 1000;
/** Fields every line has or that the readable line already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

type Line = {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
};

export function prettyFormatter(options: { colors: boolean }) {
  const paint = (code: string, text: string) => (options.colors ? `${code}${text}${RESET}` : text);
  const openRequests = new Map<string, string>();

  return function format(json: string): string {
    let line: Line;
    try {
      line = JSON.parse(json) as Line;
    } catch {
      return json.endsWith('\n') ? json : `${json}\n`;
    }
    const [label, color] = LEVELS[line.level ?? 30] ?? ['LOG  ', ''];
    const time = new Date(line.time ?? Date.now()).toTimeString().slice(0, 8);
    let text = line.msg ?? '';

    // Fastify's pair "incoming request" / "request completed" becomes one line at the end.
    if (line.reqId !== undefined && line.req && line.msg === 'incoming request') {
      if (openRequests.size >= MAX_OPEN_REQUESTS) openRequests.delete(openRequests.keys().next().value!);
      openRequests.set(line.reqId, `${line.req.method} ${line.req.url}`);
      return '';
    }
    if (line.reqId !== undefined && line.res && line.msg === 'request completed') {
      const request = openRequests.get(line.reqId) ?? 'request';
      openRequests.delete(line.reqId);
      const ms = line.responseTime === undefined ? '' : ` ${paint(DIM, `${line.responseTime.toFixed(1)} ms`)}`;
      text = `${request} ${line.res.statusCode}${ms}`;
    }

    const extras = Object.entries(line)
      // Neither what every line has nor what the message already says (the mailer's file name).
      .filter(([key, value]) => !SHOWN.has(key) && !(typeof value === 'string' && text.includes(value)))
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    if (extras.length) text += ` ${paint(DIM, extras.join(' '))}`;
    if (line.err) text += `\n${indent(line.err.stack ?? `${line.err.type}: ${line.err.message}`)}`;
    return `${paint(DIM, time)} ${paint(color, label)} ${text}\n`;
  };
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
