import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Shown in the log by the outbox mailer, e.g. the sign-in link, so a local start needs no mail server. */
  logHint?: string;
  /** Files sent with the message (a receipt's invoice PDF). */
  attachments?: MailAttachment[] | undefined;
};

export type MailAttachment = { filename: string; content: Buffer; contentType: string };

/** The message as nodemailer takes it (the log hint stays out of it). */
const mailOf = (from: string, msg: MailMessage) => ({
  from,
  to: msg.to,
  subject: msg.subject,
  text: msg.text,
  html: msg.html,
  ...(msg.attachments?.length ? { attachments: msg.attachments } : {}),
});

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(msg: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Production: any SMTP server, from SMTP_URL (smtp:// or smtps://user:pass@host:port). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(msg) {
      await transport.sendMail(mailOf(from, msg));
    },
    async close() {
      transport.close();
    },
  };
}

/** Embedded default: every message becomes an RFC 822 .eml file in `$DATA_DIR/outbox/`. */
export function fileMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  mkdirSync(dir, { recursive: true });
  return {
    kind: 'outbox',
    async send(msg) {
      const info = await transport.sendMail(mailOf(from, msg));
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const safeTo = msg.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      // A random suffix: two messages to one address in the same millisecond must not overwrite each other.
      const file = path.join(dir, `${stamp}-${randomBytes(3).toString('hex')}-${safeTo}.eml`);
      writeFileSync(file, info.message as Buffer, { flag: 'wx' });
      log.info({ to: msg.to, file }, `E-mail "${msg.subject}" written to ${file}`);
      if (msg.logHint) log.info(msg.logHint);
    },
    async close() {},
  };
}
