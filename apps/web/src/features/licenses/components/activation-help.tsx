import { Accordion, Anchor, Code, Group, Stack, Text } from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { SIGNATURE_HEADER } from '@portal/contract';
import { activateCommand, validateCommand } from '../license-display';
import classes from './licenses.module.css';
import { CopyIcon } from '@portal/ui';

function Command({ label, command }: { label: string; command: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {/* The copy button in a slim bar right above the lines it copies. */}
      <div className={classes.commandBox}>
        <div className={classes.commandBar}>
          <Text size="xs" c="dimmed" ff="monospace">
            shell
          </Text>
          <CopyIcon value={command} label={`Copy the ${label.toLowerCase()} command`} />
        </div>
        <Code block className={classes.command} tabIndex={0}>
          {command}
        </Code>
      </div>
    </Stack>
  );
}

/**
 * How a machine activates and validates itself, with commands for this key and this portal. Folded
 * by default: the nodes are what the view is for; this is reference for whoever sets up a machine.
 */
export function ActivationHelp({ licenseKey, origin = window.location.origin }: { licenseKey: string; origin?: string }) {
  return (
    <Accordion variant="contained" radius="md" chevronPosition="right">
      <Accordion.Item value="help">
        <Accordion.Control icon={<IconTerminal2 size={18} stroke={1.6} />} aria-label="How nodes activate">
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm">
              How nodes activate
            </Text>
            <Text size="sm" c="dimmed">
              Commands for a machine to run
            </Text>
          </Group>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <Text size="sm">
              A machine activates once with this key and its machine ID, becoming one of its nodes, then validates regularly. The
              key is the credential: keep it private.
            </Text>
            <Command label="Activate" command={activateCommand(origin, licenseKey)} />
            <Command label="Validate" command={validateCommand(origin, licenseKey)} />
            <Text size="xs" c="dimmed">
              Answers are signed (<Code>{SIGNATURE_HEADER}</Code> header) with the{' '}
              <Anchor href="/api/licenses/public-key" target="_blank" rel="noreferrer" size="xs">
                portal&apos;s public key
              </Anchor>
              . Machines without access to the portal use the license file instead.
            </Text>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
