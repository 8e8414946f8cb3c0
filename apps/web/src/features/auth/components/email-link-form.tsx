import { useState, type FormEvent } from 'react';
import { Button, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useGetConfigQuery } from '../../../lib/api';
import { loadedSchemas, loadSchemas } from '../../../lib/lazy-schemas';
import { safePath } from '../../../lib/safe-path';
import { useRequestLinkMutation } from '../api';
import { GoogleButton } from './google-button';
import { ErrorDisplay, LinkSent } from '@portal/ui';

type Checked = { email: string; error: null } | { email: null; error: string };

/** The address normalised by the contract's EmailSchema, or its first message. */
function checkEmail(value: string, schemas: NonNullable<ReturnType<typeof loadedSchemas>>): Checked {
  const result = schemas.EmailSchema.safeParse(value);
  if (result.success) return { email: result.data, error: null };
  return { email: null, error: result.error.issues[0]?.message ?? 'Enter a valid e-mail address' };
}

export interface EmailLinkFormProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  /** Where to land after sign-in, as given in the query string; only sent when it is a same-origin path. */
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
    const target = await safePath(to);
    const result = await requestLink({ email: address, ...(target ? { to: target } : {}) });
    return !('error' in result);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const checked = checkEmail(email, await loadSchemas());
    setFieldError(checked.error);
    if (checked.email && (await send(checked.email))) setSentTo(checked.email);
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
          <Title order={1} size="h3" textWrap="balance">
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
                const schemas = loadedSchemas();
                if (attempted && schemas) setFieldError(checkEmail(value, schemas).error);
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
