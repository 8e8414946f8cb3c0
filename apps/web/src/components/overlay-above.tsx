import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * Escape closes the top overlay only. Every open Mantine modal or drawer listens for Escape on the
 * window, so a confirmation opened above a drawer (releasing a node from the license drawer) would
 * close both at once: the overlay beneath stops listening while one is open above it.
 */
const ReportAbove = createContext<((open: boolean) => void) | null>(null);

/** For an overlay that can hold another: whether one is open above it, and the provider for its content. */
export function useOverlayAbove(): { above: boolean; OverlayAboveProvider: (props: { children: ReactNode }) => ReactNode } {
  const [count, setCount] = useState(0);
  const report = useCallback((open: boolean) => setCount((n) => Math.max(0, n + (open ? 1 : -1))), []);
  const OverlayAboveProvider = useCallback(
    ({ children }: { children: ReactNode }) => <ReportAbove.Provider value={report}>{children}</ReportAbove.Provider>,
    [report],
  );
  return { above: count > 0, OverlayAboveProvider };
}

/** Said by an overlay opened above another: while `open`, the one beneath leaves Escape to it. */
export function useOpenAbove(open: boolean): void {
  const report = useContext(ReportAbove);
  useEffect(() => {
    if (!open || !report) return;
    report(true);
    return () => report(false);
  }, [open, report]);
}
