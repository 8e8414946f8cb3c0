import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useGetConfigQuery } from '../../../lib/api';
import { useSafePath } from '../../../lib/safe-path';
import { EmailLinkForm } from './email-link-form';

/** /signup: the same passwordless flow; the account is created when the link is first used. */
export function SignUpPage() {
  const [params] = useSearchParams();
  const { data: config } = useGetConfigQuery();
  const rawTo = params.get('to');
  const to = useSafePath(rawTo);
  const keepTo = to ? `?to=${encodeURIComponent(to)}` : '';

  return (
    <>
      <EmailLinkForm
        title={`Create your ${config?.brandName ?? ''} account`.replace('  ', ' ')}
        subtitle="Buy and manage licenses, billing and downloads for your nodes. It takes a minute."
        submitLabel="Send sign-up link"
        to={rawTo}
      />
      <Text ta="center" size="sm" c="dimmed">
        Already have an account?{' '}
        <Anchor component={Link} to={`/login${keepTo}`} fw={500}>
          Sign in
        </Anchor>
      </Text>
    </>
  );
}
