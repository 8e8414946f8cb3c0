import { useEffect } from 'react';
import { NavigationProgress } from '@mantine/nprogress';
import { PROGRESS_ANIMATION_MS, PROGRESS_INCREMENT_MS } from '@portal/contract';

/**
 * The thin bar at the top while a lazily loaded page (or the first screen) loads: the pages'
 * loads drive it (lazy-page.ts). It lives outside the router so that it also shows before the
 * first screen renders.
 */
export function RouterProgress() {
  useEffect(() => {
    // Read by .portal-nprogress in global.css: the bar's width animation.
    document.documentElement.style.setProperty('--portal-progress-ms', `${PROGRESS_ANIMATION_MS}ms`);
  }, []);

  return (
    <NavigationProgress stepInterval={PROGRESS_INCREMENT_MS} size={3} aria-label="Loading page" className="portal-nprogress" />
  );
}
