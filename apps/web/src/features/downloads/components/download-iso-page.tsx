import { Button } from '@mantine/core';
import { IconDisc } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';

/** /app/download-iso */
export function DownloadIsoPage() {
  return (
    <PageFrame title={PAGES.downloadIso.title} description="The installer image of the product, with its version and checksum.">
      <EmptyState
        icon={<IconDisc size={28} stroke={1.6} />}
        title="The installer will be available here"
        description="Download the ISO, check its SHA-256 checksum, then activate each node with your license key."
        action={
          <Button component={Link} to={PAGES.licenses.path} variant="light">
            View your licenses
          </Button>
        }
      />
    </PageFrame>
  );
}
