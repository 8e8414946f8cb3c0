import { useState } from 'react';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useConsoleSelector } from '../../../lib/hooks';
import { ROLE_LABEL } from '../../../lib/roles';
import { AddFactor } from './add-factor';
import { RecoveryCodes } from './recovery-codes';
import { CenteredPage } from '@portal/ui';

/**
 * A member whose role requires a second factor and who has none adds one here, before anything
 * else in the console opens to them; then their recovery codes, shown once.
 */
export function SecondFactorSetup({ onDone, onSignOut }: { onDone: () => void; onSignOut: () => void }) {
  const role = useConsoleSelector((s) => s.session.staff?.role);
  const [codes, setCodes] = useState<string[] | null>(null);
  const done = onDone;

  return (
    <CenteredPage brandName="Vendor console" width={520}>
      <Stack gap="md">
        <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }}>
          <Stack gap={4}>
            <Title order={1} size="h3">
              Add a second factor
            </Title>
            <Text size="sm" c="dimmed">
              Your role{role ? ` (${ROLE_LABEL[role]})` : ''} can refund payments, change staff or read every customer&apos;s
              data, so an e-mail alone does not open the console. Add a passkey or an authenticator app to continue.
            </Text>
          </Stack>
        </Paper>
        {codes ? (
          <RecoveryCodes codes={codes} onDone={done} />
        ) : (
          <AddFactor onAdded={(r) => (r.recoveryCodes ? setCodes(r.recoveryCodes) : done())} />
        )}
        <Button variant="subtle" size="sm" onClick={onSignOut}>
          Sign out
        </Button>
      </Stack>
    </CenteredPage>
  );
}
