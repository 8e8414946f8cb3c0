import { useRef } from 'react';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';
import { useListActivityQuery } from '../api';
import { ACTIVITY_PAGE_SIZE, ActivityLog } from './activity-log';
import { ApiTokens } from './api-tokens';
import { DangerZone } from './danger-zone';
import { DataExport } from './data-export';
import { ProfileDetails } from './profile-details';
import { SkeletonCard, SkeletonHeading, SkeletonRows } from '@portal/ui';

/** Where the activity log and the cards under it will be, while its first page loads. */
function RestSkeleton() {
  return (
    <SkeletonCard label="Loading activity" gap="md">
      <SkeletonHeading size="sm" />
      <SkeletonRows count={5} height={14} />
    </SkeletonCard>
  );
}

/** /app/profile */
export function ProfilePage() {
  const profile = useAppSelector((s) => s.user.profile);
  // The activity log's height is known only with its first page: until then one skeleton stands
  // for it and the cards under it, which then appear together (nothing moves once shown).
  const firstPage = useListActivityQuery({ page: 1, size: ACTIVITY_PAGE_SIZE }, { skip: !profile });
  const shown = useRef(false);
  if (!firstPage.isLoading && !firstPage.isUninitialized) shown.current = true;
  return (
    <PageFrame
      title={PAGES.profile.title}
      description="Your name and company, your API tokens, your activity, your data and your account."
    >
      {profile ? (
        <>
          {/* Keyed by the address: a different account starts with its own values. */}
          <ProfileDetails key={profile.email} user={profile} />
          {shown.current ? (
            <>
              <ApiTokens />
              <ActivityLog />
              <DataExport />
              <DangerZone />
            </>
          ) : (
            <RestSkeleton />
          )}
        </>
      ) : null}
    </PageFrame>
  );
}
