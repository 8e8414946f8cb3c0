import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy* and waitFor wait for what the test expects, however long a busy machine takes to get
// there: their limit is a hang guard, not a budget (testing-library's default is 1 s).
configure({ asyncUtilTimeout: 30_000 });

// jsdom lacks the layout APIs Mantine relies on.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}

// The user asks for reduced motion (test/render.tsx in both apps): the kit's transitions then take
// no time and leave no timer behind, which would otherwise fire after a test file's jsdom is gone.
const answerMedia = window.matchMedia.bind(window);
window.matchMedia = (query: string) =>
  query.includes('prefers-reduced-motion') ? { ...answerMedia(query), matches: true } : answerMedia(query);

class ResizeObserverShim {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverShim });
}

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// jsdom throws on pseudo-element lookups that Mantine's ScrollArea performs.
const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);

// fetchBaseQuery builds `new Request('/api/...')`; Node's Request needs an absolute URL, a
// browser resolves it against the page. Do what the browser does.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.href) : input, init);
  }
}
globalThis.Request = PageRequest as typeof Request;

afterEach(() => {
  cleanup();
  delete (window as { __analytics?: unknown }).__analytics;
});
