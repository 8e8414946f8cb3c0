// BENCH_SERVER_CPUS (a CPU list as taskset reads it: "0", "0-3", "0,2"): every server under test
// runs on those cores alone and the benchmark's own process (the load generator) on the others, so
// that a server's figure is what those cores give it, without the load generator on them.
// `BENCH_SERVER_CPUS=0 npm run bench -- validation` measures the portal and its references on one
// core; unset, every process shares every core.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const serverCpus = process.env.BENCH_SERVER_CPUS || undefined;

/** The CPUs of a taskset list ("0-2,5" is 0, 1, 2 and 5). */
export function parseCpuList(list: string): number[] {
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`BENCH_SERVER_CPUS: "${list}" is not a CPU list (e.g. 0, 0-3, 0,2)`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new Error(`BENCH_SERVER_CPUS: "${part.trim()}" runs backwards`);
    for (let c = from; c <= to; c++) cpus.add(c);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** The command and arguments that run `command` on the servers' cores (as they are without the setting). */
export function onServerCores(command: string, args: string[]): [string, string[]] {
  // taskset execs the command: the child's pid is the server's own.
  return serverCpus ? ['taskset', ['-c', serverCpus, command, ...args]] : [command, args];
}

/** With BENCH_SERVER_CPUS, moves every thread of this process onto the other cores; a description. */
export function pinLoadGenerator(): string | undefined {
  if (!serverCpus) return undefined;
  const servers = parseCpuList(serverCpus);
  const cores = availableParallelism();
  const rest = Array.from({ length: cores }, (_, c) => c).filter((c) => !servers.includes(c));
  if (servers.some((c) => c >= cores)) throw new Error(`BENCH_SERVER_CPUS: this machine has CPUs 0-${cores - 1}`);
  if (rest.length === 0) throw new Error('BENCH_SERVER_CPUS: no core is left for the load generator');
  const r = spawnSync('taskset', ['-a', '-p', '-c', rest.join(','), String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset could not pin the load generator: ${r.stderr || r.error?.message}`);
  return `servers on CPU ${servers.join(',')}, load generator on CPU ${rest.join(',')}`;
}
