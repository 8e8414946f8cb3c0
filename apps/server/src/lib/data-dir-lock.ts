import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A lock's holder: its pid and, on Linux, its start time (which tells it from a later process given the same pid). */
type Holder = { pid: number; startTime?: string };

/**
 * PGlite takes no lock of its own, and two processes on one data directory corrupt it. Take an
 * exclusive lock file naming our process; a stale lock is taken over. Stale means its holder has
 * ended: gone, a zombie (killed, not yet reaped by its parent: a supervisor restarting at once after
 * a crash sees this), or its pid now belongs to another process. Node has no lock that the kernel
 * releases on exit (flock) without a native addon, hence the check.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'portal.lock');
  const ours = lockText({ pid: process.pid, startTime: startTimeOf(process.pid) });
  // Written whole under a private name, then linked into place: linking fails if a lock exists, and
  // nobody ever reads a half-written lock.
  const draft = `${file}.${process.pid}.new`;
  writeFileSync(draft, ours);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, file);
        return () => {
          // Never remove a lock that is not ours (taken over after we were thought dead).
          if (readOrUndefined(file) === ours) rmSync(file, { force: true });
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = readOrUndefined(file);
      if (found === undefined) continue;
      const holder = parse(found);
      if (holder && holder.pid !== process.pid && isRunning(holder)) {
        throw new Error(
          `Another portal process (pid ${holder.pid}) is using DATA_DIR ${dataDir}. Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      takeOver(file, found);
    }
  } finally {
    rmSync(draft, { force: true });
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}`);
}

/**
 * Removes the stale lock `found`, unless another process took it over first: the lock is moved
 * aside (one mover wins), and put back if what was moved is no longer the stale lock.
 */
function takeOver(file: string, found: string) {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // already gone: try again
  }
  if (readOrUndefined(aside) !== found) {
    try {
      linkSync(aside, file);
    } catch {
      // a third process locked meanwhile; its lock stands
    }
  }
  rmSync(aside, { force: true });
}

const lockText = (h: Holder) => `${h.pid}${h.startTime ? ` ${h.startTime}` : ''}\n`;

function parse(text: string): Holder | undefined {
  const [pid, startTime] = text.trim().split(/\s+/);
  const n = Number(pid);
  return Number.isInteger(n) && n > 0 ? { pid: n, startTime } : undefined;
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Fields of /proc/<pid>/stat from the third (state) on; undefined when there is no such process. */
function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); Linux only. */
function startTimeOf(pid: number): string | undefined {
  return procStat(pid)?.[19];
}

/** True when the lock's holder still runs. */
export function isRunning(holder: Holder): boolean {
  if (existsSync('/proc/self/stat')) {
    const stat = procStat(holder.pid);
    if (!stat) return false;
    // Z: a zombie, X: dead: it has ended and holds nothing, only its exit status awaits its parent.
    if (stat[0] === 'Z' || stat[0] === 'X') return false;
    return holder.startTime === undefined || stat[19] === holder.startTime;
  }
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
