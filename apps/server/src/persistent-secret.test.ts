import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { persistentSecret } from './config';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistentSecret', () => {
  it('makes a secret once and reads it back later', () => {
    const first = persistentSecret(dir, 'one');
    expect(persistentSecret(dir, 'one')).toBe(first);
    expect(readFileSync(path.join(dir, 'one'), 'utf8')).toBe(`${first}\n`);
  });

  it('answers the secret another process stored first while this one was making its own', () => {
    // The other process writes its secret between this one's check and its write.
    const value = persistentSecret(dir, 'raced', () => {
      writeFileSync(path.join(dir, 'raced'), 'theirs\n');
      return 'mine';
    });
    expect(value).toBe('theirs');
    expect(readFileSync(path.join(dir, 'raced'), 'utf8')).toBe('theirs\n');
  });
});
