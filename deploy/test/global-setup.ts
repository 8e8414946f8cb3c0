import { readFileSync } from 'node:fs';
import path from 'node:path';
import { logged, PORTAL_IMAGE, ROOT, sh, WORK } from './podman';
import { ensureStandIns } from './stand-ins';

/** Before every container test: the stand-in base images, then the portal's image from the Dockerfile as it is. */
export default async function setup() {
  const started = Date.now();
  await ensureStandIns((line) => console.log(line));
  console.log(`stand-ins ready after ${Math.round((Date.now() - started) / 1000)} s`);
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const revision = (await sh('git', ['rev-parse', 'HEAD'], { check: false })).stdout.trim();
  const t0 = Date.now();
  await logged(
    'nice',
    [
      ...['-n', '10', 'podman', 'build', '--pull=never', '--format', 'docker'],
      ...['--build-arg', `VERSION=${version}`, '--build-arg', `REVISION=${revision}`],
      ...['-f', 'Dockerfile', '-t', PORTAL_IMAGE, '.'],
    ],
    path.join(WORK, 'build-portal.log'),
  );
  console.log(`portal image built in ${Math.round((Date.now() - t0) / 1000)} s`);
}
