import { nprogress } from '@mantine/nprogress';
import { PROGRESS_INCREMENT_MS, PROGRESS_MINIMUM } from '@portal/contract';

/**
 * The thin loading bar at the top while a page's code loads. It starts at the minimum
 * (8 %), then creeps forward every PROGRESS_INCREMENT_MS until completed.
 */
let pending: ReturnType<typeof setTimeout> | null = null;
let running = false;

export function startProgress(): void {
  if (running) return;
  running = true;
  nprogress.set(PROGRESS_MINIMUM * 100);
  pending = setTimeout(() => {
    pending = null;
    nprogress.start();
  }, PROGRESS_INCREMENT_MS);
}

export function completeProgress(): void {
  if (!running) return;
  running = false;
  if (pending) clearTimeout(pending);
  pending = null;
  nprogress.complete();
}
