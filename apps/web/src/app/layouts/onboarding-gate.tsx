import { DEFAULT_LANDING } from '@portal/contract';
import { Navigate, Outlet } from 'react-router';
import { useAppSelector } from '../../lib/state/hooks';
import { loginPathFor } from '../../lib/safe-path';

/** /onboarding is for signed-in users who are not onboarded yet (no layout of its own). */
export function OnboardingGate() {
  const { checkingAuth, authenticated, profile } = useAppSelector((s) => s.user);
  if (checkingAuth) return null;
  if (!authenticated || !profile) return <Navigate to={loginPathFor('/onboarding')} replace />;
  if (profile.onboarded) return <Navigate to={DEFAULT_LANDING} replace />;
  return <Outlet />;
}
