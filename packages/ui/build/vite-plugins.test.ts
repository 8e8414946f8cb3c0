import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints } from './vite-plugins';

describe('compileHints', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('puts the hint on the first line of the chunks it picks and moves their source maps down one line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compile-hints-'));
    dirs.push(dir);
    const code = 'const __vite__mapDeps=(i)=>i;\nexport const x=1;\n';
    const map = { version: 3, sources: ['x.ts'], names: [], mappings: 'AAAA;AACA' };
    for (const name of ['index.js', 'page.js']) {
      writeFileSync(path.join(dir, name), code);
      writeFileSync(path.join(dir, `${name}.map`), JSON.stringify(map));
    }
    const bundle = {
      'index.js': { type: 'chunk', fileName: 'index.js', isEntry: true, name: 'index' },
      'page.js': { type: 'chunk', fileName: 'page.js', isEntry: false, name: 'page' },
      'index.css': { type: 'asset', fileName: 'index.css' },
    };
    const plugin = compileHints((chunk) => chunk.isEntry);
    (plugin.writeBundle as (options: { dir: string }, bundle: object) => void)({ dir }, bundle);

    expect(readFileSync(path.join(dir, 'index.js'), 'utf8')).toBe(`${COMPILE_HINT}\n${code}`);
    expect(JSON.parse(readFileSync(path.join(dir, 'index.js.map'), 'utf8'))).toEqual({ ...map, mappings: ';AAAA;AACA' });
    expect(readFileSync(path.join(dir, 'page.js'), 'utf8')).toBe(code);
    expect(JSON.parse(readFileSync(path.join(dir, 'page.js.map'), 'utf8'))).toEqual(map);
  });
});
