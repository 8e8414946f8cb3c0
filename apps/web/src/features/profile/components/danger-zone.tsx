import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { RECENT_SIGN_IN_MINUTES, type SessionUser } from '@portal/contract';
import { useNavigate } from 'react-router';
import { ErrorDisplay } from '../../../components/error-display';
import { resetAnalytics } from '../../../lib/analytics';
import { api } from '../../../lib/api';
import { errorBody } from '../../../lib/api-error';
import { PAGES } from '../../../lib/pages';
import { loginPathFor } from '../../../lib/safe-path';
import { useAppDispatch } from '../../../lib/state/hooks';
import { signedOut } from '../../../lib/state/user-slice';
import { useDeleteAccountMutation, useSignOutToConfirmMutation } from '../api';

export const ACCOUNT_DELETED_MESSAGE = 'Your account was deleted';
export const SIGN_IN_AGAIN_TITLE = 'For your security, sign in again to confirm';

/** The typed confirmation: the account's own e-mail address, in any letter case. */
export function confirmsDeletion(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.trim().toLowerCase();
}

/** Account deletion: what it does, a typed confirmation, and the call. */
export function DangerZone({ user }: { user: SessionUser }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [deleteAccount, deletion] = useDeleteAccountMutation();
  const [signOut, signingOut] = useSignOutToConfirmMutation();
  const confirmed = confirmsDeletion(typed, user.email);
  const needsSignIn = errorBody(deletion.error)?.code === 'RECENT_SIGN_IN_REQUIRED';

  /** Leaves the signed-in app: local state and caches cleared, analytics no longer tied to the person. */
  const leave = () => {
    resetAnalytics();
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
  };

  const onDelete = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    const result = await deleteAccount();
    if ('error' in result) return;
    notifications.show({ color: 'gray', title: ACCOUNT_DELETED_MESSAGE, message: 'Your personal data was erased. Goodbye.' });
    leave();
    // Signing out makes the signed-in layout send us to /login?to=<this page>; there is no page to
    // come back to, so plain /login replaces it once that redirect has been issued.
    setTimeout(() => void navigate('/login', { replace: true }), 0);
  };

  const onSignInAgain = async () => {
    // Whatever the server says, the session is left behind locally; a new sign-in replaces it.
    await signOut().catch(() => undefined);
    leave();
    void navigate(loginPathFor(PAGES.profile.path), { replace: true });
  };

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'xl' }}
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
      component="section"
      aria-labelledby="danger-zone-title"
    >
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4" c="red" id="danger-zone-title">
            Danger zone
          </Title>
          <Text fw={600}>Delete your account</Text>
        </Stack>
        <Text size="sm">Deleting your account takes effect at once and cannot be undone:</Text>
        <List size="sm" spacing={6} withPadding>
          <List.Item>Your subscriptions end now, without further charges.</List.Item>
          <List.Item>Your licenses stop validating: the machines that use them can no longer activate or validate.</List.Item>
          <List.Item>Your saved cards are removed.</List.Item>
          <List.Item>Your personal data is erased: name, company, e-mail address, sign-ins and activity.</List.Item>
          <List.Item>Invoices are kept in anonymised form, as accounting law requires.</List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Download your data above first if you want to keep a copy. Signing in again later with the same address starts a new,
          empty account.
        </Text>

        {needsSignIn ? (
          <Alert color="yellow" variant="light" icon={<IconLock size={18} />} title={SIGN_IN_AGAIN_TITLE} role="alert">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">
                Deleting an account needs a sign-in within the last {RECENT_SIGN_IN_MINUTES} minutes. Sign in again, then come
                back to this page to delete your account.
              </Text>
              <Button color="yellow" variant="filled" loading={signingOut.isLoading} onClick={() => void onSignInAgain()}>
                Sign out and sign in again
              </Button>
            </Stack>
          </Alert>
        ) : (
          <ErrorDisplay error={deletion.error} />
        )}

        <form onSubmit={(e) => void onDelete(e)} noValidate aria-label="Delete your account">
          <Stack gap="sm">
            <TextInput
              label="To confirm, type your e-mail address"
              description={
                <>
                  Type <strong>{user.email}</strong> to enable the button.
                </>
              }
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              maw={480}
            />
            <Group>
              <Button
                type="submit"
                color="red"
                leftSection={<IconTrash size={16} />}
                disabled={!confirmed}
                loading={deletion.isLoading}
              >
                Delete my account
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
