import { describe, expect, it } from 'vitest';
import type { DownloadInfo } from '@portal/contract';
import { latestLink, refreshDelay, shellQuote, terminalCommands } from './download-display';

const info = (expiresAt: string): DownloadInfo => ({
  url: `https://portal.example/api/products/pce/files/pce-1.0.0.iso?expires=${Date.parse(expiresAt) / 1000}&u=u1&sig=abc`,
  expiresAt,
  filename: 'pce-1.0.0.iso',
  version: '1.0.0',
  size: 1_500_000_000,
  sha256: 'a'.repeat(64),
  releaseNotesUrl: null,
});

describe('terminalCommands', () => {
  it('downloads with resume into the file, then checks the checksum', () => {
    const i = info('2030-01-01T00:00:00.000Z');
    expect(terminalCommands(i)).toBe(
      `curl -C - -o pce-1.0.0.iso '${i.url}'\necho '${'a'.repeat(64)}  pce-1.0.0.iso' | sha256sum -c`,
    );
  });

  it('quotes single quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('latestLink', () => {
  it('keeps the link that expires last', () => {
    const early = info('2030-01-01T00:00:00.000Z');
    const late = info('2030-01-01T01:00:00.000Z');
    expect(latestLink(early, late)).toBe(late);
    expect(latestLink(late, early)).toBe(late);
    expect(latestLink(undefined, early)).toBe(early);
    expect(latestLink(early, undefined)).toBe(early);
  });
});

describe('refreshDelay', () => {
  const now = Date.parse('2030-01-01T00:00:00.000Z');
  it('waits until the expiry', () => {
    expect(refreshDelay('2030-01-01T00:10:00.000Z', now, null, 30_000)).toBe(600_000);
  });
  it('refreshes at once a link that has already expired', () => {
    expect(refreshDelay('2029-12-31T23:00:00.000Z', now, null, 30_000)).toBe(0);
  });
  it('never refreshes by itself twice within the minimum gap', () => {
    expect(refreshDelay('2029-12-31T23:00:00.000Z', now, now - 10_000, 30_000)).toBe(20_000);
  });
});
