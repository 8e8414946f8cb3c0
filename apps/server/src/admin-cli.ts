/**
 * The vendor's command line: `npm run admin -- license issue|list|revoke …` and
 * `staff add|list|remove …` (console/staff-cli.ts). It works on the same
 * database as the server (PostgreSQL via DATABASE_URL, else PGlite in $DATA_DIR).
 * admin.ts runs it as a process; tests call `runAdmin` in their own.
 */
import { parseArgs } from 'node:util';
import { EmailSchema, LicenseKeySchema } from '@portal/contract';
import { ConfigError, loadConfig, type Config } from './config';
import { parseStaffCommand, runStaffCommand, STAFF_USAGE, type StaffCommand } from './console/staff-cli';
import { openDatabase, type Database } from './db/client';
import { systemClock } from './lib/clock';
import { lockDataDir } from './lib/data-dir-lock';
import { AppError } from './lib/errors';
import { textTable } from './lib/text-table';
import { createAuditService } from './modules/audit/audit.service';
import { createLicenseService, type VendorLicense } from './modules/licenses/licenses.service';
import { createUserService } from './modules/users/users.service';

const ACTOR = 'vendor-cli';
const MAX_NODES = 10_000;
const MAX_DAYS = 36_500;

const USAGE = `Usage: npm run admin -- <command>

Commands:
  license issue --email <address> --nodes <n> --days <d>
      Issue a license of <n> nodes valid for <d> days to <address>, without a subscription.
      The account is created (not yet onboarded) when the address has none. Prints the key.
  license list [--email <address>]
      List every license (or those of one address): key, status, nodes in use, expiry, owner.
  license revoke <key>
      Revoke a license: it stops validating and no node can be activated on it.
${STAFF_USAGE}
  --help
      Show this text.

The database is the server's: DATABASE_URL when set, else PGlite in DATA_DIR (default ./data).
With PGlite, stop the server first: only one process may open DATA_DIR at a time.`;

/** A problem with the command line itself: exit status 2. */
class UsageError extends Error {}

type Command =
  | { kind: 'help' }
  | { kind: 'issue'; email: string; nodes: number; days: number }
  | { kind: 'list'; email?: string }
  | { kind: 'revoke'; key: string }
  | StaffCommand;

function wholeNumber(name: string, value: string | undefined, max: number): number {
  if (value === undefined) throw new UsageError(`license issue needs --${name}`);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}, not "${value}"`);
  }
  return Number(value);
}

function email(value: string): string {
  const parsed = EmailSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--email: ${parsed.error.issues[0]?.message ?? 'not a valid address'} ("${value}")`);
  return parsed.data;
}

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        nodes: { type: 'string' },
        days: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return { kind: 'help' };
  const [group, action, ...rest] = positionals;
  if (group === 'staff')
    return parseStaffCommand(action, rest, values, (message) => {
      throw new UsageError(message);
    });
  if (group !== 'license')
    throw new UsageError(`Unknown command "${group}": the commands are license issue|list|revoke and staff add|list|remove`);
  const allow = (allowed: string[]) => {
    const extra = Object.keys(values).filter((k) => !allowed.includes(k));
    if (extra.length > 0) throw new UsageError(`license ${action} does not take --${extra.join(', --')}`);
  };
  switch (action) {
    case 'issue':
      allow(['email', 'nodes', 'days']);
      if (rest.length > 0) throw new UsageError(`license issue takes no further arguments, not "${rest.join(' ')}"`);
      if (values.email === undefined) throw new UsageError('license issue needs --email');
      return {
        kind: 'issue',
        email: email(values.email),
        nodes: wholeNumber('nodes', values.nodes, MAX_NODES),
        days: wholeNumber('days', values.days, MAX_DAYS),
      };
    case 'list':
      allow(['email']);
      if (rest.length > 0) throw new UsageError(`license list takes no further arguments, not "${rest.join(' ')}"`);
      return values.email === undefined ? { kind: 'list' } : { kind: 'list', email: email(values.email) };
    case 'revoke': {
      allow([]);
      if (rest.length !== 1)
        throw new UsageError('license revoke needs exactly one license key, like: license revoke 7K3QF-M2XPD-9HRTW-CV4NB-JEZ65');
      const key = LicenseKeySchema.safeParse(rest[0]);
      if (!key.success) throw new UsageError(`"${rest[0]}": ${key.error.issues[0]?.message ?? 'not a license key'}`);
      return { kind: 'revoke', key: key.data };
    }
    default:
      throw new UsageError(
        action === undefined
          ? 'license needs a command: issue, list or revoke'
          : `Unknown command "license ${action}": use issue, list or revoke`,
      );
  }
}

function formatTable(rows: VendorLicense[]): string {
  if (rows.length === 0) return 'No licenses.';
  const header = ['KEY', 'STATUS', 'NODES', 'EXPIRES', 'EMAIL', 'SUBSCRIPTION'];
  const lines = rows.map((r) => [
    r.key,
    r.status,
    `${r.activeNodes}/${r.maxNodes}`,
    r.expiresAt.toISOString().replace('T', ' ').slice(0, 16),
    r.email ?? '(deleted account)',
    r.subscriptionId ?? '-',
  ]);
  return textTable(header, lines);
}

/** The database a command works on, and what to call once it is done with it. */
export type OpenDatabase = (config: Config) => Promise<{ database: Database; done: () => Promise<void> }>;

/** Opens the server's database; for PGlite first takes DATA_DIR's lock, so a running server is detected. */
const openServerDatabase: OpenDatabase = async (config) => {
  let release = () => {};
  if (!config.databaseUrl) {
    try {
      release = lockDataDir(config.dataDir);
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\nThe portal server is probably running on this DATA_DIR: PGlite allows one process at a time. ` +
          'Stop the server, run this command, then start the server again (or run against PostgreSQL with DATABASE_URL).',
        { cause: err },
      );
    }
  }
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 2,
      timeoutMs: config.databaseTimeoutMs,
    });
    const done = async () => {
      try {
        await database.close();
      } finally {
        release();
      }
    };
    return { database, done };
  } catch (err) {
    release();
    throw err;
  }
};

/** Where the command writes: `out` for results (stdout), `err` for messages (stderr). */
export type AdminOutput = { out: (line: string) => void; err: (line: string) => void };

async function run(
  command: Exclude<Command, { kind: 'help' }>,
  config: Config,
  { out, err }: AdminOutput,
  open: OpenDatabase,
): Promise<void> {
  const { database, done } = await open(config);
  try {
    const audit = createAuditService({ db: database.db, clock: systemClock });
    const licenses = createLicenseService({
      config,
      db: database.db,
      clock: systemClock,
      log: { warn: (_details, message) => err(message) },
      audit,
      users: createUserService({ db: database.db, clock: systemClock, audit }),
    });
    switch (command.kind) {
      case 'issue': {
        const expiresAt = new Date(systemClock.now().getTime() + command.days * 86_400_000);
        const issued = await licenses.issueForEmail({ email: command.email, maxNodes: command.nodes, expiresAt, actor: ACTOR });
        out(issued.key);
        err(
          `Issued license ${issued.key} to ${command.email}${issued.userCreated ? ' (new account, not yet onboarded)' : ''}: ` +
            `${command.nodes} node${command.nodes === 1 ? '' : 's'}, expires ${expiresAt.toISOString()}`,
        );
        return;
      }
      case 'list':
        out(formatTable(await licenses.listAll({ email: command.email })));
        return;
      case 'staff-add':
      case 'staff-list':
      case 'staff-remove':
      case 'staff-reset-factors':
        await runStaffCommand(command, database.db, out);
        return;
      case 'revoke': {
        const result = await database.db.transaction((tx) => licenses.revoke(tx, command.key, ACTOR));
        out(result.alreadyRevoked ? `License ${result.key} was already revoked.` : `Revoked license ${result.key}.`);
        return;
      }
    }
  } finally {
    await done();
  }
}

/**
 * Runs the command line `argv` with the environment `env`; answers the exit status: 0 done,
 * 1 refused or failed, 2 a bad command line, 78 a bad configuration.
 */
export async function runAdmin(
  argv: string[],
  env: Record<string, string | undefined>,
  output: AdminOutput,
  open: OpenDatabase = openServerDatabase,
): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    output.err(`${e.message}\nRun "npm run admin -- --help" for the commands.`);
    return 2;
  }
  if (command.kind === 'help') {
    output.out(USAGE);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      output.err(e.message);
      return 78;
    }
    throw e;
  }
  try {
    await run(command, config, output, open);
    return 0;
  } catch (e) {
    output.err(e instanceof AppError || e instanceof Error ? e.message : String(e));
    return 1;
  }
}
