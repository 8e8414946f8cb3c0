import { useState } from 'react';
import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { ConsoleRequestLinkBodySchema } from '@portal/contract';
import { ErrorDisplay } from '@web/components/error-display';
import { useSchemaForm } from '@web/components/form/use-schema-form';
import { LinkSent } from '@web/features/auth/components/link-sent';
import { useRequestLinkMutation } from '../api';

/** The staff member's address; once the link is on its way, the portal's 'Check your inbox'. */
export function EmailForm() {
  const [requestLink, request] = useRequestLinkMutation();
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
