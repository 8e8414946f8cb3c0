// `npm run bench`: benchmarks, never timed tests. Prints a table and writes bench/results/latest.json.
// `npm run bench -- startup web` runs some sections only.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiBench, closeApiBench, listsBench } from './api';
import { cacheMemoryBench } from './cache-memory';
import { consoleBench } from './console';
import { pinLoadGenerator } from './cores';
import { startupBench } from './startup';
import { validationBench } from './validation';
import { webBench } from './web';

const sections: Record<string, () => Promise<Record<string, unknown>>> = {
  startup: startupBench,
  web: webBench,
  api: apiBench,
  lists: listsBench,
  validation: validationBench,
  'cache-memory': cacheMemoryBench,
  console: consoleBench,
};

const wanted = process.argv.slice(2).filter((a) => a in sections);
const pinned = pinLoadGenerator();
if (pinned) console.log(`BENCH_SERVER_CPUS: ${pinned}`);
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  ...(pinned ? { cores: pinned } : {}),
};
try {
  for (const [name, run] of Object.entries(sections)) {
    if (wanted.length && !wanted.includes(name)) continue;
    console.log(`\n## ${name}`);
    results[name] = await run();
    console.table(results[name]);
  }
} finally {
  // The api and lists sections share a seeded database and servers: stopped and dropped here.
  await closeApiBench();
}
const dir = path.resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(results, null, 2));
console.log(`\nWritten to ${path.join(dir, 'latest.json')}`);
