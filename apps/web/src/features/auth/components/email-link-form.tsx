import { useState, type FormEvent } from 'react';
import { Button, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { EmailSchema } from '@portal/contract';
import { ErrorDisplay } from '../../../components/error-display';
import { useGetConfigQuery } from '../../../lib/api';
import { useRequestLinkMutation } from '../api';
import { GoogleButton } from './google-button';
import { LinkSent } from './link-sent';

/** The first message of EmailSchema for this input, or null when it is valid. */
export function emailError(value: string): string | null {
  const result = EmailSchema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Enter a valid e-mail address');
}

export interface EmailLinkFormProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  /** Same-origin path to land on after sign-in. */
  to: string | null;
}

/** E-mail field and 'send me a link' flow shared by Login and SignUp, plus the Google option. */
export function EmailLinkForm({ title, subtitle, submitLabel, to }: EmailLinkFormProps) {
  const { data: config } = useGetConfigQuery();
  const [requestLink, { isLoading, error, reset }] = useRequestLinkMutation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);

  const send = async (address: string) => {
    const result = await requestLink({ email: address, ...(to ? { to } : {}) });
    return !('error' in result);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setFieldError(null);
    if (await send(parsed.data)) setSentTo(parsed.data);
  };

  if (sentTo) {
    return (
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
        <LinkSent
          email={sentTo}
          resending={isLoading}
          resent={resent}
          error={error}
          onResend={async () => {
            setResent(false);
            setResent(await send(sentTo));
          }}
          onChangeAddress={() => {
            reset();
            setResent(false);
            setSentTo(null);
          }}
        />
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
      <Stack gap="lg">
        <Stack gap={6} ta="center">
          <Title order={1} size="h3">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        </Stack>
        {config?.googleEnabled ? (
          <>
            <GoogleButton to={to} />
            <Divider label="or use your e-mail" labelPosition="center" />
          </>
        ) : null}
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput
              label="E-mail address"
              placeholder="you@company.com"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoFocus
              size="md"
              leftSection={<IconMail size={18} stroke={1.6} />}
              value={email}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setEmail(value);
                if (attempted) setFieldError(emailError(value));
              }}
              error={fieldError}
            />
            <ErrorDisplay error={error} />
            <Button type="submit" size="md" fullWidth loading={isLoading}>
              {submitLabel}
            </Button>
          </Stack>
        </form>
        <Text size="xs" c="dimmed" ta="center">
          No password needed: we e-mail you a link that signs you in.
        </Text>
      </Stack>
    </Paper>
  );
}
