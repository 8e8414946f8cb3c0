// How much CPU a command costs the whole machine (Linux): the busy time of every core, from
// /proc/stat, before and after it runs. Counts the processes the command starts however they are
// parented (a browser's renderers, a server it spawns), so run it on an otherwise quiet machine.
//
//   node scripts/cpu-seconds.mjs -- npx vitest run --config e2e/vitest.config.ts
//
// Prints `wall N s, CPU N s` to standard error and exits with the command's status. The README's
// CPU figures per part of the test suite come from it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Busy seconds of all cores since boot: user, nice, system, irq and softirq (not idle or iowait). */
function busySeconds() {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  // The kernel's clock ticks per second are 100 on Linux's common configurations (USER_HZ).
  return (user + nice + system + irq + softirq) / 100;
}

const args = process.argv.slice(process.argv.indexOf('--') + 1);
if (process.argv.indexOf('--') < 0 || args.length === 0) {
  console.error('usage: node scripts/cpu-seconds.mjs -- <command> [args…]');
  process.exit(2);
}
const cpu0 = busySeconds();
const t0 = performance.now();
const child = spawn(args[0], args.slice(1), { stdio: 'inherit' });
child.on('close', (status, signal) => {
  const wall = (performance.now() - t0) / 1000;
  console.error(`wall ${wall.toFixed(1)} s, CPU ${(busySeconds() - cpu0).toFixed(1)} s: ${args.join(' ')}`);
  process.exit(status ?? (signal ? 1 : 0));
});
