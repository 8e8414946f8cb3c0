import { useState } from 'react';
import { Button, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { startAuthentication } from '@simplewebauthn/browser';
import { useConsoleDispatch, useConsoleSelector } from '../../../lib/hooks';
import { signedIn } from '../../../lib/session-slice';
import { useCheckCodeMutation, useCheckPasskeyMutation, useStartPasskeyCheckMutation } from '../api';
import { browserError } from './add-factor';
import { CenteredPage, ErrorDisplay } from '@portal/ui';

/**
 * After the e-mailed link, a member with a second factor confirms it here before anything else:
 * their passkey, a code of their authenticator app, or one of their recovery codes.
 */
export function SecondFactorCheck({ onSignOut }: { onSignOut: () => void }) {
  const dispatch = useConsoleDispatch();
  const methods = useConsoleSelector((s) => s.session.secondFactor?.methods ?? []);
  const email = useConsoleSelector((s) => s.session.staff?.email);
  const [startCheck] = useStartPasskeyCheckMutation();
  const [checkPasskey] = useCheckPasskeyMutation();
  const [checkCode, codeState] = useCheckCodeMutation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [passkeyError, setPasskeyError] = useState<unknown>(null);

  const usePasskey = async () => {
    setBusy(true);
    setPasskeyError(null);
    try {
      const options = await startCheck();
      if ('error' in options) return setPasskeyError(options.error);
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options.data });
      } catch (e) {
        return setPasskeyError(browserError(e));
      }
      const checked = await checkPasskey({ response: { ...response } });
      if ('error' in checked) return setPasskeyError(checked.error);
      dispatch(signedIn(checked.data));
    } finally {
      setBusy(false);
    }
  };
  const useCode = async () => {
    const checked = await checkCode({ code: code.trim() });
    if ('data' in checked && checked.data) dispatch(signedIn(checked.data));
  };

  return (
    <CenteredPage brandName="Vendor console">
      <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} size="h3">
              Confirm it is you
            </Title>
            <Text size="sm" c="dimmed">
              {email} signed in with an e-mailed link. Confirm with your second factor to open the console.
            </Text>
          </Stack>
          {methods.includes('passkey') ? (
            <>
              <ErrorDisplay error={passkeyError} />
              <Button size="md" onClick={() => void usePasskey()} loading={busy} leftSection={<IconFingerprint size={18} />}>
                Use your passkey
              </Button>
              <Divider label="or" labelPosition="center" />
            </>
          ) : null}
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void useCode();
            }}
          >
            <Stack gap="sm">
              <TextInput
                label={methods.includes('totp') ? 'Code from your authenticator app, or a recovery code' : 'Recovery code'}
                autoComplete="one-time-code"
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <ErrorDisplay error={codeState.error} />
              <Button type="submit" variant={methods.includes('passkey') ? 'default' : 'filled'} loading={codeState.isLoading}>
                Confirm code
              </Button>
            </Stack>
          </form>
          <Button variant="subtle" size="sm" onClick={onSignOut}>
            Sign out
          </Button>
        </Stack>
      </Paper>
    </CenteredPage>
  );
}
