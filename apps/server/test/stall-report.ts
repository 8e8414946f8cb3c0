/**
 * Awaits `work`; if it is still pending after `afterMs`, writes once to stderr what is pending:
 * `label`, what `details()` answers (for example the database's sessions) and the process's
 * active handles. A hook guard of 600 s otherwise ends such a wait with no word of where it stood.
 * It changes no outcome: the work is awaited to its end either way.
 */
export async function reportingStall<T>(
  label: string,
  work: () => Promise<T>,
  details: () => Promise<string> | string = () => '',
  afterMs = 60_000,
): Promise<T> {
  const started = Date.now();
  const timer = setTimeout(() => {
    void (async () => {
      const said = await Promise.resolve()
        .then(details)
        .catch((err: unknown) => `(details failed: ${String(err)})`);
      const resources = process.getActiveResourcesInfo().join(', ');
      process.stderr.write(
        `[stall] ${label}: still pending after ${Date.now() - started} ms\n${said ? `${said}\n` : ''}active resources: ${resources}\n`,
      );
    })();
  }, afterMs);
  timer.unref();
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
}
