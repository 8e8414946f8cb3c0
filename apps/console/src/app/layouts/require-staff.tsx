import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { endSession, loadSession } from '../../features/auth/session';
import { SecondFactorCheck } from '../../features/security/components/second-factor-check';
import { SecondFactorSetup } from '../../features/security/components/second-factor-setup';
import { useConsoleDispatch, useConsoleSelector } from '../../lib/hooks';

/**
 * Signed-in pages: nothing while the session check runs; without a staff session, /login; a
 * session still short of its second factor gets the check (or, when the role requires one and
 * there is none, the set-up) in place of the page, as the server answers everything else 403.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { checking, staff, secondFactor } = useConsoleSelector((s) => s.session);
  const dispatch = useConsoleDispatch();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  if (checking) return null;
  if (!staff) return <Navigate to={`/login?to=${encodeURIComponent(pathname + search)}`} replace />;
  const signOut = () => void dispatch(endSession()).then(() => navigate('/login', { replace: true }));
  if (secondFactor?.state === 'verify') return <SecondFactorCheck onSignOut={signOut} />;
  if (secondFactor?.state === 'enroll') {
    return <SecondFactorSetup onSignOut={signOut} onDone={() => void dispatch(loadSession())} />;
  }
  return children;
}
