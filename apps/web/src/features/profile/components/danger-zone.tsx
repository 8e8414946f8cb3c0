import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { ConfirmationSchema, RECENT_SIGN_IN_MINUTES } from '@portal/contract';
import { useNavigate } from 'react-router';
import { ConfirmPhraseField } from '../../../components/form/confirm-phrase-field';
import { resetAnalytics } from '../../../lib/analytics';
import { api } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';
import { loginPathFor } from '../../../lib/safe-path';
import { useAppDispatch } from '../../../lib/state/hooks';
import { signedOut } from '../../../lib/state/user-slice';
import { useDeleteAccountMutation, useSignOutToConfirmMutation } from '../api';
import { ErrorDisplay, useSchemaForm, errorBody } from '@portal/ui';

export const ACCOUNT_DELETED_MESSAGE = 'Your account was deleted';
export const SIGN_IN_AGAIN_TITLE = 'For your security, sign in again to confirm';

/**
 * Account deletion: a quiet card with one button; what deletion does, the typed confirmation and
 * the call are in a dialog, so the page does not carry a permanent red warning.
 */
export function DangerZone() {
  const [opened, setOpened] = useState(false);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="delete-account-title">
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Title order={2} size="h4" id="delete-account-title">
            Delete account
          </Title>
          <Text size="sm" c="dimmed">
            Ends your subscriptions and licenses and erases your personal data. This cannot be undone.
          </Text>
        </Stack>
        <Button variant="default" color="red" c="red" leftSection={<IconTrash size={16} />} onClick={() => setOpened(true)}>
          Delete account…
        </Button>
      </Group>
      <DeleteAccountDialog opened={opened} onClose={() => setOpened(false)} />
    </Paper>
  );
}

function DeleteAccountDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // The typed confirmation: 'I confirm' in any letter case, exactly (the contract's rule; nothing trimmed).
  const form = useSchemaForm({ schema: ConfirmationSchema, initialValues: { confirm: '' } });
  const [deleteAccount, deletion] = useDeleteAccountMutation();
  const [signOut, signingOut] = useSignOutToConfirmMutation();
  const needsSignIn = errorBody(deletion.error)?.code === 'RECENT_SIGN_IN_REQUIRED';

  const close = () => {
    if (deletion.isLoading) return;
    form.reset();
    deletion.reset();
    onClose();
  };

  /** Leaves the signed-in app: local state and caches cleared, analytics no longer tied to the person. */
  const leave = () => {
    resetAnalytics();
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
  };

  const onDelete = form.onSubmit(async () => {
    const result = await deleteAccount();
    if ('error' in result) return;
    notifications.show({ color: 'gray', title: ACCOUNT_DELETED_MESSAGE, message: 'Your personal data was erased. Goodbye.' });
    leave();
    // Signing out makes the signed-in layout send us to /login?to=<this page>; there is no page to
    // come back to, so plain /login replaces it once that redirect has been issued.
    setTimeout(() => void navigate('/login', { replace: true }), 0);
  });

  const onSignInAgain = async () => {
    // Whatever the server says, the session is left behind locally; a new sign-in replaces it.
    await signOut().catch(() => undefined);
    leave();
    void navigate(loginPathFor(PAGES.profile.path), { replace: true });
  };

  return (
    <Modal opened={opened} onClose={close} title="Delete your account?" size="lg">
      <form onSubmit={onDelete} noValidate aria-label="Delete your account">
        <Stack gap="md">
          <Text size="sm">Deleting your account takes effect at once and cannot be undone:</Text>
          <List size="sm" spacing={6} withPadding>
            <List.Item>Your subscriptions end now, without further charges.</List.Item>
            <List.Item>Your licenses stop validating: the machines that use them can no longer activate or validate.</List.Item>
            <List.Item>Your saved cards are removed.</List.Item>
            <List.Item>Your personal data is erased: name, company, e-mail address, sign-ins and activity.</List.Item>
            <List.Item>Invoices are kept in anonymised form, as accounting law requires.</List.Item>
          </List>
          <Text size="sm" c="dimmed">
            Download your data first if you want to keep a copy. Signing in again later with the same address starts a new, empty
            account.
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
          ) : null}
          <ConfirmPhraseField data-autofocus {...form.field('confirm')} disabled={deletion.isLoading} />
          {needsSignIn ? null : <ErrorDisplay error={deletion.error} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={deletion.isLoading}>
              Cancel
            </Button>
            <Button type="submit" color="red" leftSection={<IconTrash size={16} />} loading={deletion.isLoading}>
              Delete my account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
