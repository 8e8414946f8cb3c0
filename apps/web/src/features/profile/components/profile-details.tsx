import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { displayName, UpdateProfileBodySchema, type SessionUser, type UpdateProfileBody } from '@portal/contract';
import { FieldGrid } from '../../../components/form/field-grid';
import { UserAvatar } from '../../../components/user-avatar';
import { useAppDispatch } from '../../../lib/state/hooks';
import { profileUpdated } from '../../../lib/state/user-slice';
import { useUpdateProfileMutation } from '../api';
import { ErrorDisplay, useSchemaForm } from '@portal/ui';

type Values = Required<UpdateProfileBody>;
const valuesOf = (user: SessionUser): Values => ({ fname: user.fname, lname: user.lname, company: user.company ?? '' });

/** Picture, e-mail (read-only), and the editable name and company. */
export function ProfileDetails({ user }: { user: SessionUser }) {
  const dispatch = useAppDispatch();
  const [update, { isLoading, error, reset }] = useUpdateProfileMutation();
  // The PATCH body has every field, trimmed by the contract; an empty company clears the stored one.
  const form = useSchemaForm({ schema: UpdateProfileBodySchema, initialValues: valuesOf(user) });

  const saved = valuesOf(user);
  const dirty = (Object.keys(saved) as Array<keyof Values>).some((k) => form.values[k].trim() !== saved[k].trim());

  const onSubmit = form.onSubmit(async (body) => {
    const result = await update(body);
    if ('error' in result) return form.showServerIssues(result.error);
    dispatch(profileUpdated(result.data.user));
    form.reset(valuesOf(result.data.user));
    notifications.show({
      color: 'green',
      icon: <IconCheck size={18} />,
      title: 'Profile saved',
      message: 'Your name and company were updated.',
    });
  });

  const onReset = () => {
    form.reset(saved);
    reset();
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <UserAvatar user={user} size={64} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {displayName(user)}
            </Title>
            <Text size="sm" c="dimmed">
              {user.picture
                ? 'Your picture comes from your Google account; change it there.'
                : 'Your initials are shown as your picture. Signing in with Google shows your Google picture.'}
            </Text>
          </Stack>
        </Group>

        <form onSubmit={onSubmit} noValidate aria-label="Personal details">
          <Stack gap="md">
            <FieldGrid from="sm">
              <TextInput label="First name" autoComplete="given-name" required {...form.field('fname')} />
              <TextInput label="Last name" autoComplete="family-name" required {...form.field('lname')} />
              <TextInput
                label="Company"
                description="Optional. Shown on your invoices."
                autoComplete="organization"
                {...form.field('company')}
              />
              <TextInput
                label="E-mail"
                description="Your sign-in address. It cannot be changed."
                value={user.email}
                readOnly
                variant="filled"
              />
            </FieldGrid>
            <ErrorDisplay error={error} />
            <Group gap="sm">
              <Button type="submit" loading={isLoading} disabled={!dirty}>
                Save changes
              </Button>
              {dirty ? (
                <Button variant="default" onClick={onReset} disabled={isLoading}>
                  Discard changes
                </Button>
              ) : null}
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
