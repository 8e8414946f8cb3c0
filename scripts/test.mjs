// `npm test`: unit, component and API tests (vitest projects), then the browser tests against a
// production build. Ends with one plain line `N passed, N failed` summed over every run.
// `npm test -- unit` or `npm test -- e2e` runs one part.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2];
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });

const runs = [];
function vitest(name, args) {
  const file = path.join(out, `${name}.json`);
  rmSync(file, { force: true });
  console.log(`\n=== ${name} tests${process.env.TEST_DATABASE_URL ? ' (PostgreSQL)' : ''} ===`);
  const r = spawnSync('npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${file}`], {
    cwd: root,
    stdio: 'inherit',
  });
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(file)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    skipped = report.numPendingTests + report.numTodoTests;
    // A suite that failed to load (syntax error, setup crash) counts as a failure.
    failed += report.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  }
  if (r.status !== 0 && failed === 0) failed = 1;
  runs.push({ name, passed, failed, skipped });
}

// The production build first: the browser tests and the server's start-up tests serve it.
let built = true;
if (only !== 'unit' || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.log('\n=== building the web app ===');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  built = build.status === 0;
  if (!built) runs.push({ name: 'web build', passed: 0, failed: 1, skipped: 0 });
}
if (only !== 'e2e') vitest('unit', []);
if (only !== 'unit' && built) vitest('e2e', ['--config', 'e2e/vitest.config.ts']);

const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
console.log('');
for (const r of runs) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
const skipped = sum('skipped');
console.log(`${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(sum('failed') > 0 || sum('passed') === 0 ? 1 : 0);
