import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Anchor, Button, Paper, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { DEFAULT_LANDING, OnboardingBodySchema, type OnboardingBody } from '@portal/contract';
import { useNavigate } from 'react-router';
import { CenteredPage } from '../../../components/centered-page';
import { ErrorDisplay } from '../../../components/error-display';
import { identifyUser } from '../../../lib/analytics';
import { useGetConfigQuery } from '../../../lib/api';
import { errorBody } from '../../../lib/api-error';
import { issuesByField as fieldIssues } from '../../../lib/field-errors';
import { useAppDispatch, useAppSelector } from '../../../lib/state/hooks';
import { profileUpdated } from '../../../lib/state/user-slice';
import { useCompleteOnboardingMutation } from '../api';

type Field = keyof OnboardingBody;
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS = ['fname', 'lname', 'company'] as const;
const issuesByField = (issues: Parameters<typeof fieldIssues>[0]): FieldErrors => fieldIssues(issues, FIELDS);

/** /onboarding: the one step between the first sign-in and the portal. */
export function OnboardingPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const profile = useAppSelector((s) => s.user.profile);
  const { data: config } = useGetConfigQuery();
  const [complete, { isLoading, error }] = useCompleteOnboardingMutation();
  const [values, setValues] = useState<Required<OnboardingBody>>({
    fname: profile?.fname ?? '',
    lname: profile?.lname ?? '',
    company: profile?.company ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);

  const validate = (next: Required<OnboardingBody>) => {
    const body = { fname: next.fname, lname: next.lname, ...(next.company.trim() ? { company: next.company } : {}) };
    const parsed = OnboardingBodySchema.safeParse(body);
    return parsed.success ? { body: parsed.data, errors: {} } : { body: null, errors: issuesByField(parsed.error.issues) };
  };

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
    const result = await complete(checked.body);
    if ('error' in result) {
      const issues = errorBody(result.error)?.issues;
      if (issues) setErrors(issuesByField(issues));
      return;
    }
    dispatch(profileUpdated(result.data.user));
    identifyUser(result.data.user);
    void navigate(DEFAULT_LANDING, { replace: true });
  };

  return (
    <CenteredPage
      brandName={config?.brandName}
      width={480}
      footer={
        <Text size="sm" c="dimmed">
          Not {profile?.email ?? 'you'}?{' '}
          {/* A full page navigation: the server ends the session and sends the browser to /login. */}
          <Anchor href="/api/auth/logout">Sign out</Anchor>
        </Text>
      }
    >
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="lg">
            <Stack gap="xs" align="center" ta="center">
              <ThemeIcon size={56} radius="xl" variant="light">
                <IconSparkles size={28} stroke={1.6} />
              </ThemeIcon>
              <Title order={1} size="h3" textWrap="balance">
                Welcome — tell us who you are
              </Title>
              <Text c="dimmed" size="sm">
                Your name appears on invoices and license e-mails. You can change it later in your profile.
              </Text>
            </Stack>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
              <TextInput
                label="First name"
                autoComplete="given-name"
                // The page's one job starts here: focus the first field on arrival.
                autoFocus
                required
                size="md"
                value={values.fname}
                onChange={change('fname')}
                error={errors.fname}
              />
              <TextInput
                label="Last name"
                autoComplete="family-name"
                required
                size="md"
                value={values.lname}
                onChange={change('lname')}
                error={errors.lname}
              />
            </SimpleGrid>
            <TextInput
              label="Company"
              description="Optional. Shown on your invoices."
              autoComplete="organization"
              size="md"
              value={values.company}
              onChange={change('company')}
              error={errors.company}
            />
            <ErrorDisplay error={error} />
            <Button type="submit" size="md" fullWidth loading={isLoading}>
              Continue to the portal
            </Button>
          </Stack>
        </form>
      </Paper>
    </CenteredPage>
  );
}
