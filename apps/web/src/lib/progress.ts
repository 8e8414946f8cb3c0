import { nprogress } from '@mantine/nprogress';
import { PROGRESS_INCREMENT_MS, PROGRESS_MINIMUM } from '@portal/contract';

/**
 * The thin loading bar at the top while a page's code loads. It starts at the minimum
 * (8 %), then creeps forward every PROGRESS_INCREMENT_MS until completed.
 */
let pending: ReturnType<typeof setTimeout> | null = null;
let running = false;

function startProgress(): void {
  if (running) return;
  running = true;
  nprogress.set(PROGRESS_MINIMUM * 100);
  pending = setTimeout(() => {
    pending = null;
    nprogress.start();
  }, PROGRESS_INCREMENT_MS);
}

function completeProgress(): void {
  if (!running) return;
  running = false;
  if (pending) clearTimeout(pending);
  pending = null;
  nprogress.complete();
}

let loads = 0;

/**
 * Shows the bar while `promise` is pending; loads that overlap (a layout and its page) share one
 * bar, completed when the last one settles. The bar starts a microtask later: loads begin while
 * React renders, and the bar's own state must not change during another component's render.
 */
export function trackLoad<T>(promise: Promise<T>): Promise<T> {
  loads += 1;
  queueMicrotask(() => {
    if (loads > 0) startProgress();
  });
  const settled = () => {
    loads -= 1;
    if (loads === 0) completeProgress();
  };
  promise.then(settled, settled);
  return promise;
}
