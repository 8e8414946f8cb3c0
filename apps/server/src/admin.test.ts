import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLicenseKeyChecksumValid } from '@portal/contract';
import { openDatabase } from './db/client';
import { auditEvents, licenses, users } from './db/schema/index';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const KEY = /^[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){4}$/m;

/**
 * Each test starts CLI processes under tsx (a few seconds each on a quiet machine, far more while
 * another suite runs beside this one): its limit is a hang guard, not a budget.
 */
const HANG_GUARD_MS = 600_000;

let dataDir: string;

/** Runs `npm run admin -- …` as the vendor would: a child process on a PGlite DATA_DIR of its own. */
function admin(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/admin.ts', ...args], {
      cwd: ROOT,
      // A clean environment: no DATABASE_URL from the developer's shell, so PGlite is used.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'portal-admin-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run admin -- license', () => {
  let first: string;

  it(
    'issues a license, creating the account (not onboarded), and prints the key',
    async () => {
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
    },
    HANG_GUARD_MS,
  );

  it(
    'issues to an existing account without creating another',
    async () => {
      const res = await admin('license', 'issue', '--email', 'new.customer@example.com', '--nodes', '1', '--days', '7');
      expect(res.code).toBe(0);
      expect(res.stderr).not.toContain('new account');
      await withDb(async (db) => {
        expect(await db.select().from(users).where(eq(users.email, 'new.customer@example.com'))).toHaveLength(1);
      });
    },
    HANG_GUARD_MS,
  );

  it(
    'lists licenses as a table, optionally for one address',
    async () => {
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
    },
    HANG_GUARD_MS,
  );

  it(
    'revokes a license once',
    async () => {
      const res = await admin('license', 'revoke', first.toLowerCase());
      expect(res.code).toBe(0);
      expect(res.stdout.trim()).toBe(`Revoked license ${first}.`);
      const again = await admin('license', 'revoke', first);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already revoked');
      const list = await admin('license', 'list', '--email', 'new.customer@example.com');
      expect(list.stdout).toMatch(new RegExp(`${first}\\s+suspended`));
    },
    HANG_GUARD_MS,
  );

  it(
    'fails with status 1 for a well-formed key that no license has',
    async () => {
      const res = await admin('license', 'revoke', '7K3QF-M2XPD-9HRTW-CV4NB-JEZ65');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('No license has the key 7K3QF-M2XPD-9HRTW-CV4NB-JEZ65');
    },
    HANG_GUARD_MS,
  );

  it(
    'prints the help with --help',
    async () => {
      const res = await admin('--help');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('license issue --email <address> --nodes <n> --days <d>');
      expect(res.stdout).toContain('license revoke <key>');
    },
    HANG_GUARD_MS,
  );

  it(
    'refuses bad arguments with status 2 and a clear message, changing nothing',
    async () => {
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
      // Arguments are checked before the database is opened, so these can run side by side.
      const results = await Promise.all(cases.map(([args]) => admin(...args)));
      results.forEach((res, i) => {
        const [args, message] = cases[i]!;
        expect(res.code, args.join(' ')).toBe(2);
        expect(res.stderr, args.join(' ')).toContain(message);
        expect(res.stderr, args.join(' ')).toContain('--help');
      });
      expect(await withDb(async (db) => (await db.select().from(licenses)).length)).toBe(before);
    },
    HANG_GUARD_MS,
  );

  it(
    'says clearly when the server holds the DATA_DIR',
    async () => {
      // A live process's pid in the lock file stands for a running server.
      const holder: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        writeFileSync(path.join(dataDir, 'portal.lock'), String(holder.pid));
        const res = await admin('license', 'list');
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(`Another portal process (pid ${holder.pid}) is using DATA_DIR`);
        expect(res.stderr).toContain('The portal server is probably running on this DATA_DIR');
      } finally {
        holder.kill();
        rmSync(path.join(dataDir, 'portal.lock'), { force: true });
      }
    },
    HANG_GUARD_MS,
  );
});

describe('npm run admin -- staff', () => {
  it(
    'adds, lists and removes console staff, keeping the last owner',
    async () => {
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
    },
    HANG_GUARD_MS,
  );

  it(
    'refuses bad staff arguments with status 2 and a clear message',
    async () => {
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
    },
    HANG_GUARD_MS,
  );
});
