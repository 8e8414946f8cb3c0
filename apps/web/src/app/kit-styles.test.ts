import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The kit's styles are loaded per component (kit-first-screen.css, kit-signed-in.css), not as one
 * bundle: a component used without its stylesheet renders unstyled (the pay dialog's radio list
 * showed the browser's bare radios beside the kit's dots). Every kit component the web app imports
 * has its stylesheet imported.
 */

const SRC = path.resolve(import.meta.dirname, '..');
const STYLES = path.resolve(import.meta.dirname, '../../../../node_modules/@mantine/core/styles');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function kitComponents(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part
          .replace(/\btype\b/, '')
          .split(' as ')[0]!
          .trim();
        if (/^[A-Z]/.test(name)) names.add(name);
      }
    }
  }
  return names;
}

describe("the kit's styles", () => {
  it('are imported for every kit component the web app uses', () => {
    const imported = ['kit-first-screen.css', 'layouts/kit-signed-in.css']
      .map((f) => readFileSync(path.join(import.meta.dirname, f), 'utf8'))
      .join('\n');
    const missing = [...kitComponents()]
      .filter((name) => existsSync(path.join(STYLES, `${name}.css`)))
      .filter((name) => !imported.includes(`@mantine/core/styles/${name}.css'`));
    expect(missing).toEqual([]);
    expect(kitComponents().has('Radio')).toBe(true);
  });
});
