import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { imageExists, imageLabel, logged, podman, ROOT, sh, WORK } from './podman';

/**
 * Local stand-ins of the official images that the Dockerfile and compose.yaml name, since image
 * registries cannot be reached from here (STACK.md): Debian 12 root file systems made by mmdebstrap
 * from Debian's packages, then small Containerfiles (stand-ins/) on top, tagged with the official
 * names. They stay in podman's store: each carries a label hashing its recipe (its own files in
 * stand-ins/, named after it) and is rebuilt only when that changes (or it is missing), so only a
 * machine's first run pays for mmdebstrap.
 */
const RECIPES = path.join(import.meta.dirname, 'stand-ins');
const LABEL = 'portal.test.stand-in-recipe';

type Base = { tag: string; include: string[] };
const BASES = {
  minbase: { tag: 'localhost/portal-standin/debian:bookworm-minbase', include: [] },
  services: {
    tag: 'localhost/portal-standin/debian:bookworm-services',
    include: ['postgresql-15', 'redis-server', 'redis-tools', 'caddy', 'python3-aiosmtpd'],
  },
} satisfies Record<string, Base>;

type StandIn = { tag: string; recipe: string; base: keyof typeof BASES };
export const STAND_INS: StandIn[] = [
  { tag: 'docker.io/library/node:24-bookworm-slim', recipe: 'node', base: 'minbase' },
  { tag: 'docker.io/library/postgres:17', recipe: 'postgres', base: 'services' },
  { tag: 'docker.io/library/redis:7', recipe: 'redis', base: 'services' },
  { tag: 'docker.io/library/caddy:2', recipe: 'caddy', base: 'services' },
  { tag: 'docker.io/axllent/mailpit:v1.21', recipe: 'mailpit', base: 'services' },
];

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

/** mmdebstrap's Debian root file system, imported as an image, unless the same one is there. */
async function ensureBase(name: keyof typeof BASES, log: (line: string) => void): Promise<string> {
  const base = BASES[name];
  const recipe = hash('bookworm', 'minbase', ...base.include);
  if ((await imageLabel(base.tag, LABEL)) === recipe) return recipe;
  log(`stand-ins: mmdebstrap ${base.tag} (Debian packages; a few minutes, once per machine)`);
  const tar = path.join(WORK, `${name}.tar`);
  const args = ['--variant=minbase', ...(base.include.length ? [`--include=${base.include.join(',')}`] : []), 'bookworm', tar];
  await logged('nice', ['-n', '10', 'mmdebstrap', ...args], path.join(WORK, `mmdebstrap-${name}.log`));
  await podman(['import', '--change', `LABEL ${LABEL}=${recipe}`, '--change', 'CMD ["/bin/bash"]', tar, base.tag]);
  rmSync(tar, { force: true });
  return recipe;
}

/** Node 24 from the npm registry (the `node` package's official binary) and npm itself, for the Node stand-in. */
async function nodeContext(dir: string) {
  const node24 = path.join(ROOT, '.tmp/node24');
  const bin = path.join(node24, 'node_modules/node/bin/node');
  if (!existsSync(bin)) {
    mkdirSync(node24, { recursive: true });
    if (!existsSync(path.join(node24, 'package.json')))
      copyFileSync(path.join(RECIPES, 'node24-package.json'), path.join(node24, 'package.json'));
    await sh('npm', ['install', '--prefix', node24, '--no-audit', '--no-fund', '--no-save', 'node@24']);
  }
  copyFileSync(bin, path.join(dir, 'node'));
  const packed = await sh('npm', ['pack', 'npm@11', '--silent', '--pack-destination', dir]);
  const tgz = path.join(dir, packed.stdout.trim().split('\n').pop()!);
  mkdirSync(path.join(dir, 'npm'));
  await sh('tar', ['xzf', tgz, '-C', path.join(dir, 'npm'), '--strip-components=1']);
  rmSync(tgz);
  copyFileSync('/etc/ssl/certs/ca-certificates.crt', path.join(dir, 'ca-certificates.crt'));
}

/** Builds whatever stand-in is missing or out of date; answers the tags. */
export async function ensureStandIns(log: (line: string) => void = console.log): Promise<string[]> {
  // Both root file systems at once: mmdebstrap mostly waits on downloads and the disk.
  const [minbase, services] = await Promise.all([ensureBase('minbase', log), ensureBase('services', log)]);
  const bases = { minbase, services };
  // A stand-in's own files (named after it: its Containerfile, the scripts and files it copies,
  // such as node24-package.json for node; a name followed by a letter is another stand-in's):
  // changing one stand-in rebuilds that one alone, not the Node stand-in and the portal's image.
  const recipeFiles = (name: string) =>
    readdirSync(RECIPES)
      .filter((f) => f.startsWith(name) && !/[a-z]/.test(f.charAt(name.length)))
      .sort()
      .map((f) => `${f}\n${readFileSync(path.join(RECIPES, f), 'utf8')}`);
  for (const s of STAND_INS) {
    const recipe = hash(bases[s.base], s.recipe, ...recipeFiles(s.recipe));
    if ((await imageExists(s.tag)) && (await imageLabel(s.tag, LABEL)) === recipe) continue;
    log(`stand-ins: building ${s.tag}`);
    const dir = path.join(WORK, `context-${s.recipe}`);
    rmSync(dir, { recursive: true, force: true });
    cpSync(RECIPES, dir, { recursive: true });
    if (s.recipe === 'node') await nodeContext(dir);
    await logged(
      'podman',
      ['build', '--pull=never', '--label', `${LABEL}=${recipe}`, '-f', `${s.recipe}.Containerfile`, '-t', s.tag, '.'],
      path.join(WORK, `build-${s.recipe}.log`),
      { cwd: dir },
    );
    rmSync(dir, { recursive: true, force: true });
  }
  return STAND_INS.map((s) => s.tag);
}
