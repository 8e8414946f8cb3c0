import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { Database } from '../../db/client';
import { manualClock } from '../../lib/clock';
import { createTestDatabase, ORIGIN, testConfig } from '../../../test/helpers';
import { parseMail, startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-receiver';
import { fileMailer, smtpMailer, type MailMessage } from './mailer';

const FROM = 'Portal Test <no-reply@portal.test>';

// Non-ASCII text and a line longer than SMTP allows, so the transfer encodings are exercised.
const MESSAGE: MailMessage = {
  to: 'ada@example.com',
  subject: 'Grüße: your sign-in link',
  text: `Hello Ada,\n\nSign in here: ${ORIGIN}/login?link=${'x'.repeat(43)}&to=%2Fapp\n\n${'long line '.repeat(40).trim()}\n— the portal`,
  html: `<p>Hello <b>Ada</b> — <a href="${ORIGIN}/login?link=${'x'.repeat(43)}">Sign in</a></p>`,
};

function expectMessage(raw: string) {
  const mail = parseMail(raw);
  expect(mail.headers.get('to')).toBe('ada@example.com');
  expect(mail.headers.get('from')).toBe(FROM);
  expect(mail.headers.get('subject')).toBe(MESSAGE.subject);
  expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative;/);
  expect(mail.parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html']);
  expect(mail.parts[0]!.body).toBe(MESSAGE.text);
  expect(mail.parts[1]!.body).toBe(MESSAGE.html);
}

describe('smtpMailer', () => {
  let rx: SmtpReceiver;
  beforeAll(async () => {
    rx = await startSmtpReceiver();
  });
  afterAll(() => rx.close());
  afterEach(() => {
    rx.messages.length = 0;
  });

  it('delivers a message with the right envelope, To, Subject and both text and HTML parts', async () => {
    const mailer = smtpMailer(rx.url, FROM);
    try {
      expect(mailer.kind).toBe('smtp');
      await mailer.send(MESSAGE);
    } finally {
      await mailer.close();
    }
    expect(rx.messages).toHaveLength(1);
    expect(rx.messages[0]).toMatchObject({ envelopeFrom: 'no-reply@portal.test', envelopeTo: ['ada@example.com'] });
    expectMessage(rx.messages[0]!.raw);
  });

  it('keeps the log hint out of the message', async () => {
    const mailer = smtpMailer(rx.url, FROM);
    try {
      await mailer.send({ ...MESSAGE, logHint: 'secret hint for the console only' });
    } finally {
      await mailer.close();
    }
    expect(rx.messages[0]!.raw).not.toContain('secret hint');
  });

  it('rejects when the server cannot be reached, so the outbox retries the message', async () => {
    const down = await startSmtpReceiver();
    await down.close();
    const mailer = smtpMailer(down.url, FROM);
    try {
      await expect(mailer.send(MESSAGE)).rejects.toThrow();
    } finally {
      await mailer.close();
    }
  });
});

describe('fileMailer', () => {
  function recordingLogger() {
    const calls: { level: string; args: unknown[] }[] = [];
    const record =
      (level: string) =>
      (...args: unknown[]) => {
        calls.push({ level, args });
      };
    const log = {
      level: 'info',
      fatal: record('fatal'),
      error: record('error'),
      warn: record('warn'),
      info: record('info'),
      debug: record('debug'),
      trace: record('trace'),
      silent: record('silent'),
      child: () => log,
    };
    return { log: log as unknown as FastifyBaseLogger, calls };
  }

  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-outbox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every message when several go to one address at once', async () => {
    const outbox = path.join(dir, 'burst');
    const mailer = fileMailer(outbox, FROM, recordingLogger().log);
    await Promise.all(Array.from({ length: 5 }, () => mailer.send({ ...MESSAGE, to: 'burst@example.com' })));
    expect(readdirSync(outbox)).toHaveLength(5);
  });

  it('writes a parseable .eml into the outbox folder and logs the link hint', async () => {
    const outbox = path.join(dir, 'outbox');
    const { log, calls } = recordingLogger();
    const mailer = fileMailer(outbox, FROM, log);
    expect(mailer.kind).toBe('outbox');
    const hint = `Sign-in link for ada@example.com: ${ORIGIN}/login?link=${'x'.repeat(43)}`;
    await mailer.send({ ...MESSAGE, logHint: hint });

    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{6}-ada@example\.com\.eml$/);
    const raw = readFileSync(path.join(outbox, files[0]!), 'utf8');
    expectMessage(raw);
    expect(raw).not.toContain(hint);

    const infos = calls.filter((c) => c.level === 'info').map((c) => c.args.at(-1));
    expect(infos).toContain(hint);
    expect(infos.some((m) => typeof m === 'string' && m.includes(path.join(outbox, files[0]!)))).toBe(true);
    expect(calls.filter((c) => c.level !== 'info')).toEqual([]);
  });

  it('writes the attachments into the .eml, byte for byte, after the text and HTML', async () => {
    const outbox = path.join(dir, 'attached');
    const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80, 0x0a, 0x0d]);
    await fileMailer(outbox, FROM, recordingLogger().log).send({
      ...MESSAGE,
      attachments: [{ filename: 'INV-0001.pdf', content, contentType: 'application/pdf' }],
    });
    const [file] = readdirSync(outbox);
    const mail = parseMail(readFileSync(path.join(outbox, file!), 'utf8'));
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/mixed;/);
    expect(mail.parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html', 'application/pdf']);
    expect(mail.parts[2]!.filename).toBe('INV-0001.pdf');
    expect(mail.parts[2]!.bytes.equals(content)).toBe(true);
  });

  it('logs no hint when the message has none', async () => {
    const outbox = path.join(dir, 'plain');
    const { log, calls } = recordingLogger();
    await fileMailer(outbox, FROM, log).send({ ...MESSAGE, to: 'odd/../name@example.com' });
    expect(calls).toHaveLength(1);
    // The address cannot steer the file out of the outbox folder.
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toContain('/');
    expect(parseMail(readFileSync(path.join(outbox, files[0]!), 'utf8')).headers.get('to')).toBe('<"odd/../name"@example.com>');
  });
});

describe('the app with SMTP_URL', () => {
  let rx: SmtpReceiver | undefined;
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  const clock = manualClock(new Date());

  async function build(smtpUrl: string) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-smtp-'));
    const config = testConfig(dataDir, { SMTP_URL: smtpUrl, MAIL_FROM: FROM });
    database = await createTestDatabase();
    app = await buildApp(config, { database, clock, serveWeb: false, logger: false });
    await app.ready();
  }

  afterEach(async () => {
    await app?.close();
    await database?.close();
    await rx?.close();
    rx = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('e-mails the sign-in link through the SMTP server, and the link signs in', async () => {
    const receiver = (rx = await startSmtpReceiver());
    await build(receiver.url);
    expect(app.ctx.mailer.kind).toBe('smtp');

    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/link',
      payload: { email: 'SMTP@Example.com', to: '/app/licenses' },
    });
    expect(res.statusCode).toBe(202);
    await app.ctx.services.outbox.kick();

    expect(rx.messages).toHaveLength(1);
    expect(rx.messages[0]!.envelopeTo).toEqual(['smtp@example.com']);
    const mail = parseMail(rx.messages[0]!.raw);
    expect(mail.headers.get('to')).toBe('smtp@example.com');
    expect(mail.headers.get('subject')).toBe('Your sign-in link for Customer Portal');
    const [text, html] = mail.parts;
    const link = text!.body.match(new RegExp(`^${ORIGIN}/login\\?link=([A-Za-z0-9_-]{43})&to=%2Fapp%2Flicenses$`, 'm'));
    expect(link).not.toBeNull();
    expect(html!.contentType).toBe('text/html');
    expect(html!.body).toContain(`${ORIGIN}/login?link=${link![1]}`);

    const redeem = await app.inject({ method: 'GET', url: `/api/auth/link/${link![1]}` });
    expect(redeem.statusCode).toBe(200);
    expect(redeem.json()).toMatchObject({ user: { email: 'smtp@example.com' }, to: '/app/licenses' });
  });

  it('keeps the message in the outbox while the SMTP server is down and delivers it once it is back', async () => {
    const probe = await startSmtpReceiver();
    await probe.close();
    await build(probe.url);

    const res = await app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'later@example.com' } });
    expect(res.statusCode).toBe(202);
    expect(await app.ctx.services.outbox.kick()).toBe(0);
    expect(await app.ctx.services.outbox.pending()).toBe(1);

    rx = await startSmtpReceiver(probe.port);
    clock.advance(60_000);
    expect(await app.ctx.services.outbox.kick()).toBe(1);
    expect(await app.ctx.services.outbox.pending()).toBe(0);
    expect(rx.messages).toHaveLength(1);
    expect(parseMail(rx.messages[0]!.raw).parts[0]!.body).toMatch(new RegExp(`^${ORIGIN}/login\\?link=[A-Za-z0-9_-]{43}$`, 'm'));
  });
});
