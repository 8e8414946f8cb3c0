import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { displayName, UpdateProfileBodySchema, type SessionUser, type UpdateProfileBody } from '@portal/contract';
import { ErrorDisplay } from '../../../components/error-display';
import { UserAvatar } from '../../../components/user-avatar';
import { errorBody } from '../../../lib/api-error';
import { issuesByField as fieldIssues } from '../../../lib/field-errors';
import { useAppDispatch } from '../../../lib/state/hooks';
import { profileUpdated } from '../../../lib/state/user-slice';
import { useUpdateProfileMutation } from '../api';

type Values = Required<UpdateProfileBody>;
type Field = keyof Values;
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS = ['fname', 'lname', 'company'] as const;
const issuesByField = (issues: Parameters<typeof fieldIssues>[0]): FieldErrors => fieldIssues(issues, FIELDS);

const valuesOf = (user: SessionUser): Values => ({ fname: user.fname, lname: user.lname, company: user.company ?? '' });

/** The PATCH body: every field, trimmed by the contract; an empty company clears the stored one. */
function validate(values: Values) {
  const parsed = UpdateProfileBodySchema.safeParse(values);
  return parsed.success ? { body: parsed.data, errors: {} } : { body: null, errors: issuesByField(parsed.error.issues) };
}

/** Picture, e-mail (read-only), and the editable name and company. */
export function ProfileDetails({ user }: { user: SessionUser }) {
  const dispatch = useAppDispatch();
  const [update, { isLoading, error, reset }] = useUpdateProfileMutation();
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);

  const saved = valuesOf(user);
  const dirty = (Object.keys(values) as Field[]).some((k) => values[k].trim() !== saved[k].trim());

  const change = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    if (attempted) setErrors(validate(next).errors);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const checked = validate(values);
    setErrors(checked.errors);
    if (!checked.body) return;
    const result = await update(checked.body);
    if ('error' in result) {
      const issues = errorBody(result.error)?.issues;
      if (issues) setErrors(issuesByField(issues));
      return;
    }
    dispatch(profileUpdated(result.data.user));
    setValues(valuesOf(result.data.user));
    setAttempted(false);
    notifications.show({
      color: 'green',
      icon: <IconCheck size={18} />,
      title: 'Profile saved',
      message: 'Your name and company were updated.',
    });
  };

  const onReset = () => {
    setValues(saved);
    setErrors({});
    setAttempted(false);
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
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
              <TextInput
                label="First name"
                autoComplete="given-name"
                required
                value={values.fname}
                onChange={change('fname')}
                error={errors.fname}
              />
              <TextInput
                label="Last name"
                autoComplete="family-name"
                required
                value={values.lname}
                onChange={change('lname')}
                error={errors.lname}
              />
              <TextInput
                label="Company"
                description="Optional. Shown on your invoices."
                autoComplete="organization"
                value={values.company}
                onChange={change('company')}
                error={errors.company}
              />
              <TextInput
                label="E-mail"
                description="Your sign-in address. It cannot be changed."
                value={user.email}
                readOnly
                variant="filled"
              />
            </SimpleGrid>
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
