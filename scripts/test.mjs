// `npm test`: unit, component and API tests (vitest projects) and the browser tests against a
// production build. Ends with one plain line `N passed, N failed` summed over every run.
//
//   npm test                      everything, API tests on PGlite (or TEST_DATABASE_URL)
//   npm test -- unit | e2e        one part
//   npm test -- containers        only the container tests (deploy/test: podman builds the image
//                                 from the Dockerfile and runs it, compose.yaml and the Kubernetes
//                                 manifests); `npm run test:containers` runs this
//   npm test -- --containers      everything, and the container tests beside it (CI)
//   npm test -- --postgres URL [--postgres-node PATH]
//                                 also the API tests on the PostgreSQL server at URL (each test file
//                                 makes its own database there); PATH runs that part on another Node
//                                 (CI: Node 24)
//   npm test -- --checks          also lint and typecheck (CI), counted as one failure each if they fail
//
// The parts run side by side so that both cores work all along: the browser tests, the longest
// part, start as soon as the web build is there; the unit run (in the foreground) and the
// PostgreSQL run (one vitest worker each when both run) share the rest. The system tests
// (apps/server/test/system) start whole servers on the shared PostgreSQL whatever database the run
// is for, so they run once: in the PostgreSQL run when there is one, on its Node. The container
// tests, when asked for with the rest, run last, alone.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    postgres: { type: 'string' },
    'postgres-node': { type: 'string' },
    checks: { type: 'boolean' },
    containers: { type: 'boolean' },
  },
});
const only = positionals[0];
const containers = opts.containers || only === 'containers';
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs');
const SYSTEM_TESTS = '**/test/system/**';

/**
 * Why a run that reported no failed test (or a check) still ended in failure, from its log:
 * vitest's unhandled errors (an error thrown after a test ended, a worker's RPC timing out) or the
 * log's last lines.
 */
function exitReason(logFile, status, tests) {
  const lines = existsSync(logFile)
    ? readFileSync(logFile, 'utf8')
        .replace(/\u001b\[[0-9;]*m/g, '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
  // One unhandled error's heading, its message, where it was thrown, and the test file it came from.
  const first = lines.findIndex((l) => /Unhandled (Error|Rejection) ⎯|\[vitest-(pool|worker)\]/.test(l));
  const what = (
    first === -1
      ? lines.slice(-6)
      : [
          ...lines.slice(first, first + 3),
          ...lines
            .slice(first)
            .filter((l) => /originated in|latest test/.test(l))
            .slice(0, 2),
        ]
  ).join(' | ');
  return `exit status ${status}${tests ? ' with no failed test' : ''}: ${what || 'no output'}`;
}

/** Counts from vitest's JSON report; a suite that failed to load counts as a failure. */
function countReport(file, status, logFile) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  if (file && existsSync(file)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    skipped = report.numPendingTests + report.numTodoTests;
    for (const suite of report.testResults) {
      const where = path.relative(root, suite.name);
      if (suite.status === 'failed' && suite.assertionResults.length === 0) {
        failed++;
        failures.push(`${where}: ${(suite.message || 'failed to load').split('\n')[0]}`);
      }
      for (const t of suite.assertionResults)
        if (t.status === 'failed') failures.push(`${where} > ${t.fullName}: ${(t.failureMessages?.[0] ?? '').split('\n')[0]}`);
    }
  }
  if (status !== 0 && failed === 0) {
    failed = 1;
    failures.push(exitReason(logFile, status, Boolean(file)));
  }
  return { passed, failed, skipped, failures };
}

/**
 * Copies what is appended to `file` to this process's output as it comes (every 250 ms); the
 * returned function copies the rest and stops.
 */
function follow(file) {
  let copied = 0;
  const copy = () => {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= copied) return;
      const chunk = Buffer.alloc(size - copied);
      const read = readSync(fd, chunk, 0, chunk.length, copied);
      copied += read;
      process.stdout.write(chunk.subarray(0, read));
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(copy, 250);
  return () => {
    clearInterval(timer);
    copy();
  };
}

/**
 * Runs a command with its output going straight to a log file, so the command never waits on
 * whoever reads this process's output (a test runner that blocks on a slow reader's pipe misses its
 * own workers' deadlines). In the foreground the file is followed onto the terminal as it grows; in
 * the background it is printed whole when the command ends, so two parts never interleave their
 * lines.
 */
function run(name, command, args, { env = {}, background = false, report } = {}) {
  const logFile = path.join(out, `${name.replace(/[^\w.-]+/g, '-')}.log`);
  const log = openSync(logFile, 'w');
  console.log(
    background ? `\n=== ${name}: started in the background (output in ${path.relative(root, logFile)}) ===` : `\n=== ${name} ===`,
  );
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: root,
    // Colours for a terminal that follows the run, as if it wrote there itself.
    env: { ...process.env, ...(!background && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
    stdio: ['ignore', log, log],
  });
  const stopFollowing = background ? undefined : follow(logFile);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      closeSync(log);
      if (stopFollowing) stopFollowing();
      else {
        console.log(`\n=== ${name} (ran in the background) ===`);
        process.stdout.write(readFileSync(logFile));
      }
      resolve({ name, seconds: Math.round((Date.now() - started) / 1000), ...countReport(report, status, logFile) });
    });
  });
}

/** One vitest run, with its JSON report in .tmp for the counts; `nice` lowers its priority. */
function vitest(name, args, { node = process.execPath, nice, ...rest } = {}) {
  const report = path.join(out, `${name.replace(/[^\w.-]+/g, '-')}.json`);
  rmSync(report, { force: true });
  const argv = [vitestBin, 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${report}`];
  if (nice) return run(`${name} tests`, 'nice', ['-n', String(nice), node, ...argv], { ...rest, report });
  return run(`${name} tests`, node, argv, { ...rest, report });
}

function nodeVersion(node) {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
}

const runs = [];
const dbName = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

// Lint and typecheck need no build: they start first and take what CPU the tests leave.
if (opts.checks) {
  for (const script of ['lint', 'typecheck'])
    runs.push(run(script, 'nice', ['-n', '5', 'npm', 'run', script], { background: true }).then((r) => ({ ...r, check: true })));
}

// The container tests build their own images (deploy/test/global-setup.ts). Alone they run now;
// with the other parts they run after them: beside them, building the image starved the browser
// and PostgreSQL runs of CPU (38 min in all on 2 cores against about 16 + 10 one after the other)
// and made their timing-sensitive tests flaky.
const containerRun = () => vitest('containers', ['--config', 'deploy/test/vitest.config.ts']);
if (only === 'containers') runs.push(containerRun());

// The production builds first: the browser tests and the server's start-up tests serve them.
let built = true;
for (const [workspace, name] of only === 'containers'
  ? []
  : [
      ['apps/web', 'web'],
      ['apps/console', 'console'],
    ]) {
  if (only === 'unit' && existsSync(path.join(root, workspace, 'dist/index.html'))) continue;
  console.log(`\n=== building the ${name} app ===`);
  const buildStarted = Date.now();
  const build = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  console.log(`=== the ${name} app's build took ${Math.round((Date.now() - buildStarted) / 1000)} s ===`);
  if (build.status === 0) continue;
  built = false;
  runs.push(Promise.resolve({ name: `${name} build`, passed: 0, failed: 1, skipped: 0 }));
}

const e2e = only !== 'unit' && only !== 'containers' && built;
const unit = only !== 'e2e' && only !== 'containers';
const postgres = opts.postgres && only !== 'e2e' && only !== 'containers';
if (e2e) runs.push(vitest('e2e', ['--config', 'e2e/vitest.config.ts'], { background: unit || postgres }));
// Beside the browser tests, two unit-type runs take one worker each; alone, a run takes both.
const workers = unit && postgres ? ['--maxWorkers=1'] : [];
if (postgres) {
  const node = opts['postgres-node'] ?? process.execPath;
  const label = `api (PostgreSQL${opts['postgres-node'] ? `, Node ${nodeVersion(node)}` : ''})`;
  runs.push(
    vitest(label, ['--project', 'server', ...workers], { env: { TEST_DATABASE_URL: opts.postgres }, node, background: unit }),
  );
}
if (unit) runs.push(vitest(`unit (${dbName})`, [...(postgres ? ['--exclude', SYSTEM_TESTS] : []), ...workers]));

const results = await Promise.all(runs);
if (containers && only !== 'containers') results.push(await containerRun());
const sum = (k) => results.reduce((n, r) => n + r[k], 0);
console.log('');
// Each part's own time beside its counts: which part is the long pole of a run.
const took = (r) => (r.seconds === undefined ? '' : ` (${r.seconds} s)`);
for (const r of results)
  console.log(
    r.check
      ? `${r.name}: ${r.failed ? 'failed' : 'passed'}${took(r)}`
      : `${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${took(r)}`,
  );
// What failed, by name, beside the counts: a long run's log is often read from its end.
for (const r of results) for (const f of r.failures ?? []) console.log(`FAILED in ${r.name}: ${f.slice(0, 400)}`);
const skipped = sum('skipped');
console.log(`${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(sum('failed') > 0 || sum('passed') === 0 ? 1 : 0);
