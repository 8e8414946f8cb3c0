import { Text } from '@mantine/core';
import { Navigate, useSearchParams } from 'react-router';
import { CONSOLE_GOOGLE_ERRORS, type ConsoleGoogleError } from '@portal/contract';
import { useConsoleSelector } from '../../../lib/hooks';
import { EmailForm } from './email-form';
import { LinkLanding } from './link-landing';
import { CenteredPage } from '@portal/ui';

const isGoogleError = (v: string | null): v is ConsoleGoogleError =>
  (CONSOLE_GOOGLE_ERRORS as readonly string[]).includes(v ?? '');

/**
 * /login: the address form (with ?error=, why sign-in with Google was refused), or (with ?link=)
 * the landing of an e-mailed link.
 */
export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const staff = useConsoleSelector((s) => s.session.staff);
  const link = params.get('link');
  const error = params.get('error');

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
      {link ? (
        <LinkLanding linkId={link} onRequestNew={() => setParams({}, { replace: true })} />
      ) : (
        <EmailForm googleError={isGoogleError(error) ? error : null} />
      )}
    </CenteredPage>
  );
}
