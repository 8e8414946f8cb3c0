import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BillingEnvSchema, billingProblem, billingSettings } from './config/billing-settings';
import { BrandEnvSchema, brandSettings } from './config/brand-settings';
import { ConsoleEnvSchema, consoleOriginProblem, consolePortProblem, consoleSettings } from './config/console-settings';
import { InvoicingEnvSchema, invoicingProblem, invoicingSettings } from './config/invoicing-settings';
import { LicenseEnvSchema, licenseSettings } from './config/license-settings';
import { ServerEnvSchema, serverProblem, serverSettings } from './config/server-settings';
import { SignInEnvSchema, signInProblem, signInSettings } from './config/sign-in-settings';
import { WebhookEnvSchema, webhookSettings } from './config/webhook-settings';

/**
 * Every variable the server reads, one schema made of the settings' groups (config/*-settings.ts).
 * process.env is read here and nowhere else.
 */
const EnvSchema = z.object({
  ...ServerEnvSchema.shape,
  ...SignInEnvSchema.shape,
  ...BillingEnvSchema.shape,
  ...InvoicingEnvSchema.shape,
  ...BrandEnvSchema.shape,
  ...LicenseEnvSchema.shape,
  ...WebhookEnvSchema.shape,
  ...ConsoleEnvSchema.shape,
});

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const problem =
    signInProblem(e) ?? billingProblem(e) ?? serverProblem(e) ?? consolePortProblem(e, e.PORT) ?? invoicingProblem(e);
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
  const server = serverSettings(e);
  const consoleConfig = consoleSettings(e);
  const originProblem = consoleOriginProblem(consoleConfig, server.publicUrl);
  if (originProblem) throw new ConfigError(`Invalid configuration:\n  ${originProblem}`);
  return {
    ...server,
    ...signInSettings(e),
    webhooks: webhookSettings(e),
    ...brandSettings(e),
    ...billingSettings(e),
    ...invoicingSettings(e),
    ...licenseSettings(e, server),
    console: consoleConfig,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** A secret kept in $DATA_DIR when not configured, so restarts keep sessions and signatures valid. */
export function persistentSecret(
  dataDir: string,
  name: string,
  make: () => string = () => randomBytes(32).toString('base64url'),
): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  // Several processes on one DATA_DIR (WEB_CONCURRENCY) may make the secret at once: each writes
  // its own file and links it into place, and whoever comes second reads the winner's, whole.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}
