import { Anchor, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { SIGNATURE_HEADER } from '@portal/contract';
import { activateCommand, validateCommand } from '../license-display';
import { CopyIcon } from './license-bits';
import classes from './licenses.module.css';

function Command({ label, command }: { label: string; command: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyIcon value={command} label={`Copy the ${label.toLowerCase()} command`} />
      </Group>
      <Code block className={classes.command} tabIndex={0}>
        {command}
      </Code>
    </Stack>
  );
}

/** How a machine activates and validates itself, with commands for this key and this portal. */
export function ActivationHelp({ licenseKey, origin = window.location.origin }: { licenseKey: string; origin?: string }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="activation-help-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="activation-help-title">
          How nodes activate
        </Title>
        <Text size="sm">
          Each machine running the product activates itself once with this key and a stable fingerprint (its machine
          ID), which takes one slot. It then validates regularly; a node that stops validating is marked stale after a
          day and keeps its slot until you release it. No sign-in is needed: the key is the credential, so keep it
          private.
        </Text>
        <Command label="Activate" command={activateCommand(origin, licenseKey)} />
        <Command label="Validate" command={validateCommand(origin, licenseKey)} />
        <Text size="xs" c="dimmed">
          Every answer carries an Ed25519 signature in its <Code>{SIGNATURE_HEADER}</Code> header; nodes verify it with the{' '}
          <Anchor href="/api/licenses/public-key" target="_blank" rel="noreferrer" size="xs">
            portal&apos;s public key
          </Anchor>
          . Sites without access to the portal use the license file instead.
        </Text>
      </Stack>
    </Paper>
  );
}
