// `npm test`: unit, component and API tests (vitest projects), then the browser tests against a
// production build. Ends with one plain line `N passed, N failed` summed over every run.
//
//   npm test                      everything, API tests on PGlite (or TEST_DATABASE_URL)
//   npm test -- unit | e2e        one part
//   npm test -- --postgres URL [--postgres-node PATH]
//                                 also the API tests on the PostgreSQL server at URL (each test file
//                                 makes its own database there), run beside the browser tests so
//                                 both cores work; PATH runs that part on another Node (CI: Node 24)
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { postgres: { type: 'string' }, 'postgres-node': { type: 'string' } },
});
const only = positionals[0];
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs');

/** Counts from vitest's JSON report; a suite that failed to load counts as a failure. */
function countReport(file, status) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(file)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    skipped = report.numPendingTests + report.numTodoTests;
    failed += report.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  }
  if (status !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

/**
 * One vitest run. In the foreground its output goes to the terminal; in the background it goes to
 * a log file, printed whole when the run ends, so two runs never interleave their lines.
 */
function vitest(name, args, { env = {}, node = process.execPath, background = false } = {}) {
  const file = path.join(out, `${name}.json`);
  rmSync(file, { force: true });
  const argv = [vitestBin, 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${file}`];
  const finish = (status) => ({ name, ...countReport(file, status) });
  if (!background) {
    console.log(`\n=== ${name} tests ===`);
    const r = spawnSync(node, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    return finish(r.status);
  }
  const logFile = path.join(out, `${name}.log`);
  const log = createWriteStream(logFile);
  console.log(`\n=== ${name} tests: started in the background (output in ${path.relative(root, logFile)}) ===`);
  const child = spawn(node, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      log.end(() => {
        console.log(`\n=== ${name} tests (ran in the background) ===`);
        process.stdout.write(readFileSync(logFile));
        resolve(finish(status));
      });
    });
  });
}

const runs = [];
const dbName = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

// The production build first: the browser tests and the server's start-up tests serve it.
let built = true;
if (only !== 'unit' || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.log('\n=== building the web app ===');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  built = build.status === 0;
  if (!built) runs.push({ name: 'web build', passed: 0, failed: 1, skipped: 0 });
}
if (only !== 'e2e') runs.push(vitest(`unit (${dbName})`, []));

// The API tests on PostgreSQL wait on the database more than on the CPU, and the browser tests on
// the browser: beside each other they keep both cores busy.
const postgres =
  opts.postgres && only !== 'e2e'
    ? vitest(
        `api (PostgreSQL${opts['postgres-node'] ? `, Node ${nodeVersion(opts['postgres-node'])}` : ''})`,
        ['--project', 'server'],
        {
          env: { TEST_DATABASE_URL: opts.postgres },
          node: opts['postgres-node'] ?? process.execPath,
          background: only !== 'unit' && built,
        },
      )
    : undefined;
if (only !== 'unit' && built) runs.push(vitest('e2e', ['--config', 'e2e/vitest.config.ts']));
if (postgres) runs.push(await postgres);

function nodeVersion(node) {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
}

const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
console.log('');
for (const r of runs)
  console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
const skipped = sum('skipped');
console.log(`${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(sum('failed') > 0 || sum('passed') === 0 ? 1 : 0);
