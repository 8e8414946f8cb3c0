import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';
import { ActivityLog } from './activity-log';
import { DangerZone } from './danger-zone';
import { DataExport } from './data-export';
import { ProfileDetails } from './profile-details';

/** /app/profile */
export function ProfilePage() {
  const profile = useAppSelector((s) => s.user.profile);
  return (
    <PageFrame title={PAGES.profile.title} description="Your name and company, your activity, your data and your account.">
      {profile ? (
        <>
          {/* Keyed by the address: a different account starts with its own values. */}
          <ProfileDetails key={profile.email} user={profile} />
          <ActivityLog />
          <DataExport />
          <DangerZone />
        </>
      ) : null}
    </PageFrame>
  );
}
