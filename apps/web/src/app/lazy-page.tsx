import { use, type ComponentType } from 'react';
import { trackLoad } from '../lib/progress';

export type LazyPage = ComponentType & {
  /** Starts loading the code now (at most once); rendering the page waits for the same load. */
  preload: () => Promise<unknown>;
};

/**
 * A page or layout whose code loads on first use, with the progress bar showing meanwhile. The
 * router (router.tsx) calls `preload` for every route an address matches, so that a layout and its
 * page load side by side, and before the first render, so that the first screen appears at once.
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loading: Promise<ComponentType> | undefined;
  let loaded: ComponentType | undefined;
  let suspended = false;
  const preload = () =>
    (loading ??= trackLoad(load()).then((Page) => {
      loaded = Page;
      return Page;
    }));
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
