import { use, type ComponentType } from 'react';
import { trackLoad } from '../lib/progress';

export type LazyPage = ComponentType & {
  /** Starts loading the code now (at most once, or again after a failure and a retry). */
  preload: () => Promise<unknown>;
};

/**
 * Bumped by `retryFailedLoads` (Try again): a page whose load failed under an older round loads
 * again on its next use. Otherwise a failure is kept for FAILURE_KEPT_MS, so that the renders
 * right after it (React renders a failing page more than once, and a navigation renders twice)
 * show the error instead of downloading again on each render; a later visit downloads again.
 */
let round = 0;
const FAILURE_KEPT_MS = 3_000;

/** Lets every page whose code failed to load (a network blip, a deploy) try again on next use. */
export function retryFailedLoads(): void {
  round += 1;
}

/**
 * A page or layout whose code loads on first use, with the progress bar showing meanwhile. The
 * router (router.tsx) calls `preload` for every route an address matches, so that a layout and its
 * page load side by side, and before the first render, so that the first screen appears at once.
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loading: Promise<ComponentType> | undefined;
  let failed: { round: number; at: number } | undefined;
  let loaded: ComponentType | undefined;
  let suspended = false;
  const preload = () => {
    if (failed && (failed.round !== round || Date.now() - failed.at > FAILURE_KEPT_MS)) {
      loading = undefined;
      failed = undefined;
    }
    if (loading) return loading;
    const attempt = trackLoad(load()).then(
      (Page) => {
        loaded = Page;
        return Page;
      },
      (error: unknown) => {
        failed = { round, at: Date.now() };
        throw error;
      },
    );
    // The settled state where React's use() reads it at once: a failure renders the error screen
    // on the next render instead of suspending on a promise that has already failed.
    const state = attempt as typeof attempt & { status?: string; value?: ComponentType; reason?: unknown };
    void attempt.then(
      (value) => {
        state.status = 'fulfilled';
        state.value = value;
      },
      (reason: unknown) => {
        state.status = 'rejected';
        state.reason = reason;
      },
    );
    loading = attempt;
    return attempt;
  };
  function LazyPage() {
    // Code that is already here renders without suspending: content that suspended on its first
    // render is revealed only after a throttle (about 300 ms in React 19). Once the page has
    // suspended, every render reads the load with use(), as React requires of a replayed render.
    if (loaded && !suspended) {
      const Page = loaded;
      return <Page />;
    }
    suspended = true;
    const Page = use(preload());
    return <Page />;
  }
  return Object.assign(LazyPage, { preload });
}
