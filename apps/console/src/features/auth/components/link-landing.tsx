import type { ReactNode } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockX, IconLinkOff, IconShieldCheck } from '@tabler/icons-react';
import { LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import { useNavigate } from 'react-router';
import { useConsoleDispatch } from '../../../lib/hooks';
import { signedIn } from '../../../lib/session-slice';
import { useExchangeLinkMutation } from '../api';
import { ErrorDisplay, errorStatus } from '@portal/ui';

export interface LinkLandingProps {
  /** The secret of the e-mailed link (`/login?link=<id>`). */
  linkId: string;
  onRequestNew: () => void;
}

const PROBLEM = {
  410: {
    icon: <IconClockX size={28} stroke={1.6} />,
    color: 'yellow',
    title: 'This sign-in link has expired or was already used',
  },
  404: { icon: <IconLinkOff size={28} stroke={1.6} />, color: 'red', title: 'This sign-in link is not valid' },
} as const;

/** One card of the landing: an icon, a heading, a line, then what to do. */
function Card({
  icon,
  color,
  title,
  text,
  alert = false,
  children,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  text: string;
  alert?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }}>
      <Stack gap="md" align="center" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Stack gap="xs" role={alert ? 'alert' : undefined}>
          <Title order={1} size="h3" textWrap="balance">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {text}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * The page an e-mailed link opens. One click before the link is redeemed: a mail scanner that
 * opens every link must neither use it up nor receive the session.
 */
export function LinkLanding({ linkId, onRequestNew }: LinkLandingProps) {
  const dispatch = useConsoleDispatch();
  const navigate = useNavigate();
  const [exchange, { isLoading, error }] = useExchangeLinkMutation();
  const status = errorStatus(error);

  const onContinue = async () => {
    const result = await exchange(linkId);
    if (!result.data) return;
    dispatch(signedIn(result.data));
    void navigate('/overview', { replace: true });
  };

  if (status === 410 || status === 404 || status === 400) {
    const problem = PROBLEM[status === 410 ? 410 : 404];
    return (
      <Card
        {...problem}
        alert
        text={`Each link works once, for ${LOGIN_LINK_TTL_MINUTES} minutes, and a newer link replaces older ones. Request a new link and open the most recent e-mail.`}
      >
        <Button size="md" fullWidth onClick={onRequestNew}>
          Request a new link
        </Button>
      </Card>
    );
  }
  return (
    <Card
      icon={<IconShieldCheck size={28} stroke={1.6} />}
      title="Sign in to the vendor console"
      text="You opened a staff sign-in link. Continue to finish signing in on this device."
    >
      <ErrorDisplay error={error} />
      <Button size="md" fullWidth onClick={onContinue} loading={isLoading} autoFocus>
        Continue to the console
      </Button>
      <Button variant="subtle" size="sm" onClick={onRequestNew}>
        Sign in with another address
      </Button>
    </Card>
  );
}
