import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const STORAGE_KEY = 'portal-scroll-positions';

function readSaved(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * What React Router's <ScrollRestoration> does, which only a data router offers (the app uses the
 * declarative one: docs/decisions/019): back, forward and a reload return to where that page was
 * scrolled; any other page starts at its #hash, or at the top. Positions are kept per history entry
 * and survive a reload in sessionStorage.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const positions = useRef<Record<string, number> | null>(null);
  const current = useRef(location.key);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    // Recorded as the visitor scrolls: by the time the next page is rendered the old one is gone.
    const record = () => {
      (positions.current ??= readSaved())[current.current] = window.scrollY;
    };
    const save = () => {
      record();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current ?? {}));
      } catch {
        // Storage full or disabled: positions are then kept for this page's life only.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    current.current = location.key;
    const saved = (positions.current ??= readSaved())[location.key];
    if (typeof saved === 'number') {
      window.scrollTo(0, saved);
      return;
    }
    try {
      const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
      if (target) {
        target.scrollIntoView();
        return;
      }
    } catch {
      // Not a decodable element id: the top, as for any other address.
    }
    window.scrollTo(0, 0);
  }, [location]);

  return null;
}
