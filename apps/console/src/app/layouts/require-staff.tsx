import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useConsoleSelector } from '../../lib/hooks';

/** Signed-in pages: nothing while the session check runs; without a staff session, /login. */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { checking, staff } = useConsoleSelector((s) => s.session);
  const { pathname, search } = useLocation();
  if (checking) return null;
  if (!staff) return <Navigate to={`/login?to=${encodeURIComponent(pathname + search)}`} replace />;
  return children;
}
