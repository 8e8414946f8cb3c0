import { useState } from 'react';
import { Alert, Button, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle, IconMail } from '@tabler/icons-react';
import { consolePath, ConsoleRequestLinkBodySchema, type ConsoleGoogleError } from '@portal/contract';
import { useAuthOptionsQuery, useRequestLinkMutation } from '../api';
import { ErrorDisplay, useSchemaForm, LinkSent } from '@portal/ui';

/** What the page says when sign-in with Google came back without a session (`/login?error=`). */
export const GOOGLE_ERROR_MESSAGES: Record<ConsoleGoogleError, string> = {
  google_not_staff:
    "This Google account is not on the vendor's staff. Use the Google account of your work address, or ask an owner to add you.",
  google: 'Sign-in with Google did not finish. Try again, or have a sign-in link e-mailed to you.',
  google_unavailable: 'Google could not be reached. Try again in a moment, or have a sign-in link e-mailed to you.',
  rate_limited: 'Too many sign-in attempts from here. Wait a minute and try again.',
};

/**
 * The staff member's address, and 'Sign in with Google' when the server offers it; once the link
 * is on its way, the portal's 'Check your inbox'. `googleError`: why Google sign-in was refused.
 */
export function EmailForm({ googleError = null }: { googleError?: ConsoleGoogleError | null }) {
  const [requestLink, request] = useRequestLinkMutation();
  const options = useAuthOptionsQuery();
  const [sent, setSent] = useState<{ to: string; again: boolean } | null>(null);
  const form = useSchemaForm({ schema: ConsoleRequestLinkBodySchema, initialValues: { email: '' } });
  const email = form.field('email');

  const send = async (to: string, again: boolean) => {
    const result = await requestLink({ email: to });
    if (!('error' in result)) setSent({ to, again });
  };

  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }}>
      {sent ? (
        <LinkSent
          email={sent.to}
          resending={request.isLoading}
          resent={sent.again}
          error={request.error}
          onResend={() => void send(sent.to, true)}
          onChangeAddress={() => {
            request.reset();
            setSent(null);
          }}
        />
      ) : (
        <form noValidate onSubmit={form.onSubmit(({ email: to }) => send(to, false))}>
          <Stack gap="lg">
            <Stack gap={6} ta="center">
              <Title order={1} size="h3" textWrap="balance">
                Sign in to the vendor console
              </Title>
              <Text c="dimmed" size="sm">
                For the vendor&apos;s staff. We e-mail you a link that signs you in; there is no password.
              </Text>
            </Stack>
            {googleError ? (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
                {GOOGLE_ERROR_MESSAGES[googleError]}
              </Alert>
            ) : null}
            {options.data?.google ? (
              <>
                <Button
                  component="a"
                  href={consolePath('googleStart')}
                  variant="default"
                  size="md"
                  fullWidth
                  leftSection={<IconBrandGoogle size={18} stroke={1.6} />}
                >
                  Sign in with Google
                </Button>
                <Divider label="or use your e-mail" labelPosition="center" />
              </>
            ) : null}
            <TextInput
              label="Work e-mail address"
              placeholder="you@vendor.com"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoFocus
              size="md"
              leftSection={<IconMail size={18} stroke={1.6} />}
              value={email.value}
              error={email.error}
              onChange={(e) => email.onChange(e.currentTarget.value)}
            />
            <ErrorDisplay error={request.error} />
            <Button type="submit" size="md" fullWidth loading={request.isLoading}>
              E-mail me a sign-in link
            </Button>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
