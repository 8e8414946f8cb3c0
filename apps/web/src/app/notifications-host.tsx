import { lazy, Suspense, useState } from 'react';
import { useAppSelector } from '../lib/state/hooks';

// Loaded only once someone has signed in in this tab, so the sign-in page never downloads it;
// notifications shown before it arrives wait in Mantine's store and appear once it mounts.
const Notifications = lazy(async () => {
  const [m] = await Promise.all([import('@mantine/notifications'), import('@mantine/notifications/styles.css')]);
  return { default: () => <m.Notifications position="top-right" /> };
});

/**
 * One notifications host for every layout. It stays mounted after a sign-out, so a notice such as
 * 'Your account was deleted' is still shown on the sign-in page.
 */
export function NotificationsHost() {
  const authenticated = useAppSelector((s) => s.user.authenticated);
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (authenticated && !wasSignedIn) setWasSignedIn(true);
  if (!wasSignedIn) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}
