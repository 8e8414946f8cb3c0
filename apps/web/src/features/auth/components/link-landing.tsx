import { Button, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockX, IconLinkOff, IconLogin2 } from '@tabler/icons-react';
import { DEFAULT_LANDING, LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/state/hooks';
import { safePath } from '../../../lib/safe-path';
import { useGetLinkRecipientQuery, useRedeemLinkMutation } from '../api';
import { startSession } from '../session';
import { ErrorDisplay, errorStatus } from '@portal/ui';

export interface LinkLandingProps {
  /** The secret from the e-mailed link (`/login?link=<id>`). */
  linkId: string;
  brandName: string | undefined;
  /** Leave the landing for the e-mail form, to ask for a new link. */
  onRequestNew: () => void;
}

/**
 * The page an e-mailed sign-in link opens. It asks for one click before redeeming: mail
 * scanners that open every link on delivery must neither use up the link nor get the session.
 * It first says which address the link was sent to, so that a link someone else sent (a page
 * can open this page with the sender's own link) is not followed into the sender's account.
 */
export function LinkLanding({ linkId, brandName, onRequestNew }: LinkLandingProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const recipient = useGetLinkRecipientQuery(linkId);
  const [redeem, { isLoading, error }] = useRedeemLinkMutation();
  const status = errorStatus(error);
  const sentTo = recipient.data?.email;

  const onContinue = async () => {
    const result = await redeem(linkId);
    if (!result.data) return;
    const { user, to } = result.data;
    const target = user.onboarded ? ((await safePath(to)) ?? DEFAULT_LANDING) : '/onboarding';
    dispatch(startSession(user));
    void navigate(target, { replace: true });
  };

  if (status === 410 || status === 404 || status === 400) {
    const expired = status === 410;
    return (
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
        <Stack gap="md" align="center" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" color={expired ? 'yellow' : 'red'}>
            {expired ? <IconClockX size={28} stroke={1.6} /> : <IconLinkOff size={28} stroke={1.6} />}
          </ThemeIcon>
          <Stack gap="xs" role="alert">
            <Title order={1} size="h3" textWrap="balance">
              {expired ? 'This sign-in link has expired or was already used' : 'This sign-in link is not valid'}
            </Title>
            <Text c="dimmed" size="sm">
              {expired
                ? `Each link works once and only for ${LOGIN_LINK_TTL_MINUTES} minutes, and a newer link replaces older ones. Request a new link and open the most recent e-mail.`
                : 'The link may have been copied incompletely, or a newer link replaced it. Request a new link and open the most recent e-mail.'}
            </Text>
          </Stack>
          <Button size="md" fullWidth onClick={onRequestNew}>
            Request a new link
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
      <Stack gap="md" align="center" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconLogin2 size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} size="h3" textWrap="balance">
          Sign in to {brandName ?? 'the portal'}
        </Title>
        {recipient.isLoading ? (
          <Center mih={120}>
            <Loader size="sm" aria-label="Checking the sign-in link" />
          </Center>
        ) : (
          <>
            {sentTo ? (
              <Text size="sm">
                This link was sent to{' '}
                <Text span fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {sentTo}
                </Text>
                . Continue only if this is your address.
              </Text>
            ) : (
              <Text c="dimmed" size="sm">
                You opened a sign-in link. Continue to finish signing in on this device.
              </Text>
            )}
            <ErrorDisplay error={error} />
            {/* The one thing to do on this page: focus it on arrival, so Enter continues. */}
            <Button size="md" fullWidth onClick={onContinue} loading={isLoading} autoFocus>
              Continue to the portal
            </Button>
            <Button variant="subtle" size="sm" onClick={onRequestNew}>
              Not you? Sign in with another address
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
