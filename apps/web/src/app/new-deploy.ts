/** Where the reload for a deploy is remembered, so that a page that still fails is not reloaded again. */
const RELOADED_FOR = 'portal-reloaded-for-build';

/** The entry script of an index.html (hashed by the build, so it names the deploy). */
export function entryScript(html: string): string | undefined {
  return (
    /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1] ?? /<script[^>]+src="([^"]+)"[^>]+type="module"/.exec(html)?.[1]
  );
}

/** True when `error` says that a piece of the app's code could not be downloaded. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  // Chromium, Firefox and Safari word it differently; Vite's preload of a page's CSS too.
  return /dynamically imported module|module script failed|Unable to preload CSS|error loading dynamically imported/i.test(
    message,
  );
}

/**
 * After a page's code failed to load: if a new deploy replaced the app (the server's index.html
 * names another entry script than the one running), reloads the page once to get the new build.
 * Answers false when there is no new deploy, the server cannot be reached, or this build was
 * reloaded for already.
 */
export async function reloadIfRedeployed(): Promise<boolean> {
  const running = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src');
  if (!running) return false;
  let latest: string | undefined;
  try {
    const res = await fetch('/', { cache: 'no-store', headers: { accept: 'text/html' } });
    latest = res.ok ? entryScript(await res.text()) : undefined;
  } catch {
    return false; // offline: the Try again button is the way on
  }
  if (!latest || latest === running || sessionStorage.getItem(RELOADED_FOR) === latest) return false;
  sessionStorage.setItem(RELOADED_FOR, latest);
  window.location.reload();
  return true;
}
