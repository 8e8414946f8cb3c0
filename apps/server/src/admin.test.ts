import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLicenseKeyChecksumValid } from '@portal/contract';
import { runAdmin, type OpenDatabase } from './admin-cli';
import { createTestDatabase, seedDataDir } from '../test/helpers';
import type { Database } from './db/client';
import { auditEvents, licenses, users } from './db/schema/index';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const KEY = /^[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){4}$/m;

let dataDir: string;
let database: Database & { url?: string };

type Result = { code: number | null; stdout: string; stderr: string };

/**
 * `npm run admin -- …` in this process, on this file's database (a PGlite clone, or PostgreSQL in
 * that run). Opening a database per command is tested once, in 'opens the server's DATA_DIR'.
 */
function admin(...args: string[]): Promise<Result> {
  return runInProcess(args, {}, async () => ({ database, done: async () => {} }));
}

/** A clean environment (no DATABASE_URL from the developer's shell) but `env`. */
async function runInProcess(args: string[], env: Record<string, string>, open?: OpenDatabase): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(
    args,
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    { out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) },
    open,
  );
  return { code, stdout, stderr };
}

/** `npm run admin -- …` as the vendor runs it: a child process, for its exit status and streams. */
function adminProcess(dir: string, ...args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/admin.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function withDb<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
  return fn(database.db);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-admin-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin -- license', () => {
  let first: string;

  it('issues a license, creating the account (not onboarded), and prints the key', async () => {
    const res = await admin('license', 'issue', '--email', 'New.Customer@Example.com', '--nodes', '5', '--days', '30');
    expect(res.stderr).toContain('new account');
    expect(res.code).toBe(0);
    first = res.stdout.trim();
    expect(first).toMatch(KEY);
    expect(isLicenseKeyChecksumValid(first)).toBe(true);
    await withDb(async (db) => {
      const [user] = await db.select().from(users).where(eq(users.email, 'new.customer@example.com'));
      expect(user).toMatchObject({ onboarded: false });
      const [license] = await db.select().from(licenses).where(eq(licenses.key, first));
      expect(license).toMatchObject({ userId: user!.id, subscriptionId: null, maxNodes: 5, status: 'active' });
      const days = (license!.expiresAt.getTime() - license!.createdAt.getTime()) / 86_400_000;
      expect(Math.round(days)).toBe(30);
      const [event] = await db.select().from(auditEvents).where(eq(auditEvents.subjectId, license!.id));
      expect(event).toMatchObject({ action: 'license_issued', actor: 'vendor-cli' });
    });
  });

  it('issues to an existing account without creating another', async () => {
    const res = await admin('license', 'issue', '--email', 'new.customer@example.com', '--nodes', '1', '--days', '7');
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('new account');
    await withDb(async (db) => {
      expect(await db.select().from(users).where(eq(users.email, 'new.customer@example.com'))).toHaveLength(1);
    });
  });

  it('lists licenses as a table, optionally for one address', async () => {
    await admin('license', 'issue', '--email', 'other@example.com', '--nodes', '2', '--days', '10');
    const all = await admin('license', 'list');
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+STATUS\s+NODES\s+EXPIRES\s+EMAIL\s+SUBSCRIPTION$/);
    expect(lines).toHaveLength(4);
    expect(all.stdout).toMatch(
      new RegExp(`${first}\\s+active\\s+0/5\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+new.customer@example.com\\s+-`),
    );
    const one = await admin('license', 'list', '--email', 'other@example.com');
    expect(one.code).toBe(0);
    expect(one.stdout.trim().split('\n')).toHaveLength(2);
    expect(one.stdout).toContain('other@example.com');
    const none = await admin('license', 'list', '--email', 'nobody@example.com');
    expect(none.stdout.trim()).toBe('No licenses.');
  });

  it('revokes a license once', async () => {
    const res = await admin('license', 'revoke', first.toLowerCase());
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(`Revoked license ${first}.`);
    const again = await admin('license', 'revoke', first);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
    const list = await admin('license', 'list', '--email', 'new.customer@example.com');
    expect(list.stdout).toMatch(new RegExp(`${first}\\s+suspended`));
  });

  it('fails with status 1 for a well-formed key that no license has', async () => {
    const res = await admin('license', 'revoke', '7K3QF-M2XPD-9HRTW-CV4NB-JEZ65');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No license has the key 7K3QF-M2XPD-9HRTW-CV4NB-JEZ65');
  });

  it('refuses bad arguments with status 2 and a clear message, changing nothing', async () => {
    const cases: Array<[string[], string]> = [
      [['license', 'issue', '--nodes', '5', '--days', '30'], 'license issue needs --email'],
      [['license', 'issue', '--email', 'not-an-address', '--nodes', '5', '--days', '30'], 'Enter a valid e-mail address'],
      [['license', 'issue', '--email', 'a@b.example', '--nodes', '0', '--days', '30'], '--nodes must be a whole number from 1'],
      [['license', 'issue', '--email', 'a@b.example', '--nodes', 'five', '--days', '30'], '--nodes must be a whole number'],
      [['license', 'issue', '--email', 'a@b.example', '--nodes', '5'], 'license issue needs --days'],
      [['license', 'issue', '--email', 'a@b.example', '--nodes', '5', '--days', '-3'], '--days'],
      [
        ['license', 'issue', '--email', 'a@b.example', '--nodes', '5', '--days', '30', '--colour', 'red'],
        "Unknown option '--colour'",
      ],
      [['license', 'revoke'], 'license revoke needs exactly one license key'],
      [['license', 'revoke', 'NOT-A-KEY'], '25 characters in 5 groups'],
      [['license', 'revoke', '7K3QF-M2XPD-9HRTW-CV4NB-JEZ66'], 'This license key has a typo'],
      [['license', 'list', '--nodes', '3'], 'license list does not take --nodes'],
      [['license', 'frobnicate'], 'Unknown command "license frobnicate"'],
      [['license'], 'license needs a command'],
      [['users', 'list'], 'Unknown command "users"'],
    ];
    const before = await withDb(async (db) => (await db.select().from(licenses)).length);
    const results = await Promise.all(cases.map(([args]) => admin(...args)));
    results.forEach((res, i) => {
      const [args, message] = cases[i]!;
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(message);
      expect(res.stderr, args.join(' ')).toContain('--help');
    });
    expect(await withDb(async (db) => (await db.select().from(licenses)).length)).toBe(before);
  });

  it("opens the server's database itself, holding DATA_DIR's lock only while it works", async () => {
    // PostgreSQL at DATABASE_URL in the PostgreSQL run, else PGlite in DATA_DIR, as a server left it.
    const url = database.url;
    if (url === undefined) seedDataDir(dataDir);
    const env: Record<string, string> = url === undefined ? {} : { DATABASE_URL: url };
    const res = await runInProcess(['license', 'list', '--email', 'opened@vendor.example'], env);
    expect(res).toMatchObject({ code: 0, stdout: 'No licenses.\n', stderr: '' });
    expect(existsSync(path.join(dataDir, 'portal.lock'))).toBe(false);
  });
});

describe('npm run admin -- staff', () => {
  it('adds, lists and removes console staff, keeping the last owner', async () => {
    const added = await admin('staff', 'add', '--email', 'Owner@Vendor.example', '--role', 'owner');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added owner@vendor.example to the console staff as owner');
    expect((await admin('staff', 'add', '--email', 'help@vendor.example', '--role', 'support')).code).toBe(0);

    const list = await admin('staff', 'list');
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL +ROLE +ADDED +LAST SIGN-IN$/);
    expect(lines.slice(1).map((l) => l.split(/ +/).slice(0, 2))).toEqual([
      ['help@vendor.example', 'support'],
      ['owner@vendor.example', 'owner'],
    ]);

    const last = await admin('staff', 'remove', '--email', 'owner@vendor.example');
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('The last owner cannot be removed');
    const removed = await admin('staff', 'remove', '--email', 'help@vendor.example');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('Removed help@vendor.example from the console staff');
    // A sole owner who lost their passkey and their recovery codes: the vendor resets their factors.
    const reset = await admin('staff', 'reset-factors', '--email', 'owner@vendor.example');
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Reset the second factors of owner@vendor.example');
  });

  it('refuses bad staff arguments with status 2 and a clear message', async () => {
    const cases: Array<[string[], string]> = [
      [['staff', 'add', '--email', 'a@b.example'], 'staff add needs --role owner|support|billing'],
      [['staff', 'add', '--email', 'a@b.example', '--role', 'admin'], 'not "admin"'],
      [['staff', 'add', '--role', 'owner'], 'staff add needs --email'],
      [['staff', 'remove', '--email', 'nope'], 'Enter a valid e-mail address'],
      [['staff', 'list', '--role', 'owner'], 'staff list does not take --role'],
      [['staff', 'promote'], 'Unknown command "staff promote"'],
      [['license', 'list', '--role', 'owner'], 'license list does not take --role'],
    ];
    const results = await Promise.all(cases.map(([args]) => admin(...args)));
    results.forEach((res, i) => {
      const [args, message] = cases[i]!;
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(message);
    });
  });
});

describe('npm run admin as a process', () => {
  it('exits with the status of the command, results on stdout and messages on stderr', async () => {
    // A live process's pid in the lock file stands for a running server.
    const holder: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)']);
    const held = mkdtempSync(path.join(tmpdir(), 'portal-admin-held-'));
    try {
      writeFileSync(path.join(held, 'portal.lock'), String(holder.pid));
      const [help, locked, bad] = await Promise.all([
        adminProcess(dataDir, '--help'),
        adminProcess(held, 'license', 'list'),
        adminProcess(dataDir, 'license', 'issue', '--email', 'a@b.example', '--nodes', '0', '--days', '30'),
      ]);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toContain('license issue --email <address> --nodes <n> --days <d>');
      expect(help.stdout).toContain('license revoke <key>');
      expect(locked).toMatchObject({ code: 1, stdout: '' });
      expect(locked.stderr).toContain(`Another portal process (pid ${holder.pid}) is using DATA_DIR`);
      expect(locked.stderr).toContain('The portal server is probably running on this DATA_DIR');
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).toContain('--nodes must be a whole number from 1');
      expect(bad.stderr).toContain('--help');
    } finally {
      holder.kill();
      rmSync(held, { recursive: true, force: true });
    }
  });
});
