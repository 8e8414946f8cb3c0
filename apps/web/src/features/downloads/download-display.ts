import type { DownloadInfo } from '@portal/contract';

/** A value inside single quotes for a POSIX shell ('it'\''s'). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The terminal lines that download (resuming an interrupted download with -C -) and then check
 * the file against its SHA-256 checksum.
 */
export function terminalCommands(info: Pick<DownloadInfo, 'url' | 'filename' | 'sha256'>): string {
  // Release file names are letters, digits, dot, dash and underscore (the contract's pattern): no quoting needed.
  const file = /^[A-Za-z0-9._-]+$/.test(info.filename) ? info.filename : shellQuote(info.filename);
  return [
    `curl -C - -o ${file} ${shellQuote(info.url)}`,
    `echo ${shellQuote(`${info.sha256}  ${info.filename}`)} | sha256sum -c`,
  ].join('\n');
}

/** Of two answers, the link that lasts longer (a manual or automatic refresh, or a refetch). */
export function latestLink(a: DownloadInfo | undefined, b: DownloadInfo | undefined): DownloadInfo | undefined {
  if (!a) return b;
  if (!b) return a;
  return new Date(b.expiresAt).getTime() >= new Date(a.expiresAt).getTime() ? b : a;
}

/** Milliseconds until the automatic refresh of a link: at its expiry, but never sooner than `minGapMs` after the last one. */
export function refreshDelay(expiresAt: string, now: number, lastAutoRefresh: number | null, minGapMs: number): number {
  const untilExpiry = new Date(expiresAt).getTime() - now;
  const gap = lastAutoRefresh === null ? 0 : lastAutoRefresh + minGapMs - now;
  return Math.max(untilExpiry, gap, 0);
}
