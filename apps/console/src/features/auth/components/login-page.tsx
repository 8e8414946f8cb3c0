import { Text } from '@mantine/core';
import { Navigate, useSearchParams } from 'react-router';
import { CenteredPage } from '@web/components/centered-page';
import { useConsoleSelector } from '../../../lib/hooks';
import { EmailForm } from './email-form';
import { LinkLanding } from './link-landing';

/** /login: the address form, or (with ?link=) the landing of an e-mailed link. */
export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const staff = useConsoleSelector((s) => s.session.staff);
  const link = params.get('link');

  if (staff && !link) return <Navigate to="/overview" replace />;
  return (
    <CenteredPage
      brandName="Vendor console"
      footer={
        <Text size="xs" c="dimmed" ta="center" maw={360}>
          Every action in the console is recorded with its reason in the staff audit log.
        </Text>
      }
    >
      {link ? <LinkLanding linkId={link} onRequestNew={() => setParams({}, { replace: true })} /> : <EmailForm />}
    </CenteredPage>
  );
}
