import { nprogress, nprogressStore } from '@mantine/nprogress';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trackLoad } from './progress';

describe('trackLoad', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows one bar for overlapping loads and completes it when the last one settles', async () => {
    const complete = vi.spyOn(nprogress, 'complete');
    let finishLayout!: () => void;
    let failPage!: (e: Error) => void;
    const layout = trackLoad(new Promise<void>((r) => (finishLayout = r)));
    const page = trackLoad(new Promise<void>((_, reject) => (failPage = reject)));
    await Promise.resolve();
    expect(nprogressStore.getState().progress).toBeGreaterThan(0);
    finishLayout();
    await layout;
    expect(complete).not.toHaveBeenCalled();
    failPage(new Error('offline'));
    await expect(page).rejects.toThrow('offline');
    await Promise.resolve();
    expect(complete).toHaveBeenCalledTimes(1);
  });
});
