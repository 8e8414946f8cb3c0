import { useEffect } from 'react';
import { NavigationProgress } from '@mantine/nprogress';
import { PROGRESS_ANIMATION_MS, PROGRESS_INCREMENT_MS } from '@portal/contract';
import type { createBrowserRouter } from 'react-router';
import { completeProgress, startProgress } from '../lib/progress';

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * The thin bar at the top while a lazily loaded page (or the first screen) loads. It lives
 * outside the RouterProvider so that it also shows before the router's first render.
 */
export function RouterProgress({ router }: { router: Router }) {
  useEffect(() => {
    // Read by .portal-nprogress in global.css: the bar's width animation.
    document.documentElement.style.setProperty('--portal-progress-ms', `${PROGRESS_ANIMATION_MS}ms`);
  }, []);

  useEffect(() => {
    const sync = (state: Router['state']) => {
      if (!state.initialized || state.navigation.state === 'loading') startProgress();
      else completeProgress();
    };
    sync(router.state);
    return router.subscribe(sync);
  }, [router]);

  return (
    <NavigationProgress stepInterval={PROGRESS_INCREMENT_MS} size={3} aria-label="Loading page" className="portal-nprogress" />
  );
}
