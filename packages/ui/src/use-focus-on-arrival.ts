import { useEffect, useRef } from 'react';

/**
 * Moves focus to the element once, when it appears: the heading of a view that replaces the one
 * holding focus (after 'Send sign-in link' the form, and its button, are gone), so keyboard and
 * screen-reader users continue from the new content instead of the top of the page body.
 * The element needs tabIndex={-1} when it is not focusable by itself (a heading).
 */
export function useFocusOnArrival<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  return ref;
}
