import { lazy, Suspense } from 'react';

// Loaded after the first render so the sign-in bundle stays small; notifications shown before it
// arrives wait in Mantine's store and appear once it mounts.
const Notifications = lazy(async () => {
  const [m] = await Promise.all([import('@mantine/notifications'), import('@mantine/notifications/styles.css')]);
  return { default: () => <m.Notifications position="top-right" /> };
});

/** One notifications host for every layout, so a notice survives a sign-out (e.g. account deleted). */
export function NotificationsHost() {
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}
