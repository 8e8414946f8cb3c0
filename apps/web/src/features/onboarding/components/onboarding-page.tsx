import { Anchor, Button, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { DEFAULT_LANDING, OnboardingBodySchema } from '@portal/contract';
import { useNavigate } from 'react-router';
import { FieldGrid } from '../../../components/form/field-grid';
import { identifyUser } from '../../../lib/analytics';
import { useGetConfigQuery } from '../../../lib/api';
import { useAppDispatch, useAppSelector } from '../../../lib/state/hooks';
import { profileUpdated } from '../../../lib/state/user-slice';
import { useCompleteOnboardingMutation } from '../api';
import { CenteredPage, ErrorDisplay, useSchemaForm } from '@portal/ui';

/** /onboarding: the one step between the first sign-in and the portal. */
export function OnboardingPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const profile = useAppSelector((s) => s.user.profile);
  const { data: config } = useGetConfigQuery();
  const [complete, { isLoading, error }] = useCompleteOnboardingMutation();
  const form = useSchemaForm({
    schema: OnboardingBodySchema,
    initialValues: { fname: profile?.fname ?? '', lname: profile?.lname ?? '', company: profile?.company ?? '' },
    // A blank company is no company: left out, not sent as ''.
    toInput: ({ company, ...names }) => ({ ...names, ...(company.trim() ? { company } : {}) }),
  });

  const onSubmit = form.onSubmit(async (body) => {
    const result = await complete(body);
    if ('error' in result) return form.showServerIssues(result.error);
    dispatch(profileUpdated(result.data.user));
    identifyUser(result.data.user);
    void navigate(DEFAULT_LANDING, { replace: true });
  });

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
            <FieldGrid>
              <TextInput
                label="First name"
                autoComplete="given-name"
                // The page's one job starts here: focus the first field on arrival.
                autoFocus
                required
                size="md"
                {...form.field('fname')}
              />
              <TextInput label="Last name" autoComplete="family-name" required size="md" {...form.field('lname')} />
            </FieldGrid>
            <TextInput
              label="Company"
              description="Optional. Shown on your invoices."
              autoComplete="organization"
              size="md"
              {...form.field('company')}
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
