import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { LOGIN_LINK_TTL_MINUTES } from '@portal/contract';
import { ErrorDisplay } from './error-display';
import { useFocusOnArrival } from './use-focus-on-arrival';

export interface LinkSentProps {
  email: string;
  onResend: () => void;
  onChangeAddress: () => void;
  resending: boolean;
  resent: boolean;
  error: unknown;
}

/** After a sign-in link was requested: where it went and what to do next. */
export function LinkSent({ email, onResend, onChangeAddress, resending, resent, error }: LinkSentProps) {
  const heading = useFocusOnArrival<HTMLHeadingElement>();
  return (
    <Stack gap="md" align="center" ta="center" miw={0}>
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconMailCheck size={28} stroke={1.6} />
      </ThemeIcon>
      <Title order={1} size="h3" textWrap="balance" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
        Check your inbox
      </Title>
      {/* An address has no spaces to wrap at: it breaks anywhere rather than run off the card. */}
      <Text maw="100%" style={{ overflowWrap: 'anywhere' }}>
        We sent a sign-in link to{' '}
        <Text span fw={600} data-testid="sent-to">
          {email}
        </Text>
        .
      </Text>
      <Text c="dimmed" size="sm">
        Open the e-mail and select the link to continue. It works once and expires in {LOGIN_LINK_TTL_MINUTES} minutes. Nothing
        there after a minute? Check your spam folder or send a new link.
      </Text>
      {resent && !error ? (
        <Text size="sm" c="teal" role="status">
          A new link is on its way.
        </Text>
      ) : null}
      <ErrorDisplay error={error} />
      <Stack gap="xs" w="100%">
        <Button variant="default" size="md" fullWidth onClick={onResend} loading={resending}>
          Send a new link
        </Button>
        <Button variant="subtle" fullWidth onClick={onChangeAddress}>
          Use a different address
        </Button>
      </Stack>
    </Stack>
  );
}
