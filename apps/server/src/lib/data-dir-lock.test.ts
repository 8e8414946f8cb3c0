import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'portal-lock-'));
  dirs.push(d);
  return d;
};
const lockFile = (dir: string) => path.join(dir, 'portal.lock');
const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
const linux = existsSync('/proc/self/stat');

/** A process that runs until the test ends. */
async function running(): Promise<number> {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid!;
}

/**
 * A zombie: `sleep 600` (which never waits for children) is the parent of a killed `sleep`,
 * so the killed one stays in the process table as after `kill -9` before its parent reaps it.
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (c: Buffer) => resolve(Number(c.toString()))));
  // Kill only once the shell has become `sleep`: a shell may still reap a child that dies before.
  while (readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() !== 'sleep') await new Promise((r) => setTimeout(r, 10));
  process.kill(pid, 'SIGKILL');
  // Waits for the state the test needs; the test's timeout guards against a hang.
  while (state(pid)[0] !== 'Z') await new Promise((r) => setTimeout(r, 10));
  expect(state(pid)[0]).toBe('Z');
  return pid;
}

describe('the DATA_DIR lock', () => {
  it('is taken, refused to a second taker naming the holder, and released', () => {
    const dir = dataDir();
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${process.pid}\\b`));
    unlock();
    // Nothing is left in the folder.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses while the holder runs', async () => {
    const dir = dataDir();
    const pid = await running();
    writeFileSync(lockFile(dir), `${pid} ${linux ? state(pid)[19] : ''}\n`);
    expect(() => lockDataDir(dir)).toThrow(`Another portal process (pid ${pid}) is using DATA_DIR ${dir}`);
    // The refusal left the holder's lock alone.
    expect(readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${pid}\\b`));
  });

  it('refuses while a holder of the earlier format (a pid alone) runs', async () => {
    const dir = dataDir();
    const pid = await running();
    writeFileSync(lockFile(dir), String(pid));
    expect(() => lockDataDir(dir)).toThrow(`(pid ${pid})`);
  });

  it('takes over the lock of a process that has gone', async () => {
    const dir = dataDir();
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    writeFileSync(lockFile(dir), String(child.pid));
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${process.pid}\\b`));
    unlock();
  });

  it.runIf(linux)('takes over the lock of a zombie (killed, not yet reaped by its parent)', async () => {
    const dir = dataDir();
    const pid = await zombie();
    writeFileSync(lockFile(dir), String(pid));
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${process.pid}\\b`));
    unlock();
  });

  it.runIf(linux)('takes over a lock whose pid now belongs to another process (another start time)', async () => {
    const dir = dataDir();
    const pid = await running();
    writeFileSync(lockFile(dir), `${pid} ${Number(state(pid)[19]) - 1}\n`);
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), 'utf8')).toMatch(new RegExp(`^${process.pid}\\b`));
    unlock();
  });

  it('takes over an unreadable lock (cut short by a crash) and never removes a lock that is not its own', () => {
    const dir = dataDir();
    writeFileSync(lockFile(dir), '');
    const unlock = lockDataDir(dir);
    // Taken over by another process after this one was thought dead: unlocking leaves it alone.
    writeFileSync(lockFile(dir), '1 1\n');
    unlock();
    expect(readFileSync(lockFile(dir), 'utf8')).toBe('1 1\n');
  });
});
