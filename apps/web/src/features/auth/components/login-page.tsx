import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useGetConfigQuery } from '../../../lib/api';
import { useSafePath } from '../../../lib/safe-path';
import { EmailLinkForm } from './email-link-form';
import { LinkLanding } from './link-landing';

/** /login: the e-mail sign-in form, or the landing of an e-mailed link (`?link=<id>`). */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const { data: config } = useGetConfigQuery();
  const rawTo = params.get('to');
  const to = useSafePath(rawTo);
  const linkId = params.get('link');
  const keepTo = to ? `?to=${encodeURIComponent(to)}` : '';

  if (linkId) {
    return (
      <LinkLanding
        key={linkId}
        linkId={linkId}
        brandName={config?.brandName}
        onRequestNew={() => setParams(to ? { to } : {}, { replace: true })}
      />
    );
  }

  return (
    <>
      <EmailLinkForm
        title={`Sign in to ${config?.brandName ?? 'the portal'}`}
        subtitle="Your licenses, subscriptions, invoices and downloads in one place."
        submitLabel="Send sign-in link"
        to={rawTo}
      />
      <Text ta="center" size="sm" c="dimmed">
        New here?{' '}
        <Anchor component={Link} to={`/signup${keepTo}`} fw={500}>
          Create an account
        </Anchor>
      </Text>
    </>
  );
}
