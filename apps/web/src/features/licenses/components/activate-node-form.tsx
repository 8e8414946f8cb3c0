import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { ActivateBodySchema, plural } from '@portal/contract';
import { FieldGrid } from '../../../components/form/field-grid';
import { track } from '../../../lib/analytics';
import { useActivateLicenseMutation } from '../api';
import { ErrorDisplay, errorBody } from '@portal/ui';

type Values = { fingerprint: string; hostname: string };
type FieldErrors = Partial<Record<keyof Values, string>>;

function issuesByField(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if ((key === 'fingerprint' || key === 'hostname') && !out[key]) out[key] = issue.message;
  }
  return out;
}

function check(values: Values) {
  const body = { fingerprint: values.fingerprint, ...(values.hostname.trim() ? { hostname: values.hostname } : {}) };
  const parsed = ActivateBodySchema.safeParse(body);
  return parsed.success ? { body: parsed.data, errors: {} } : { body: null, errors: issuesByField(parsed.error.issues) };
}

/**
 * Activates a node by hand, as the node software would: for a machine that cannot reach the
 * portal itself, or to reserve a node. Checked with the contract's messages before sending.
 */
export function ActivateNodeForm({ licenseKey, onCancel }: { licenseKey: string; onCancel: () => void }) {
  const [activate, { isLoading, error, reset }] = useActivateLicenseMutation();
  const [values, setValues] = useState<Values>({ fingerprint: '', hostname: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const change = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    setDone(null);
    if (error) reset();
    if (attempted) setErrors(check(next).errors);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setDone(null);
    const checked = check(values);
    setErrors(checked.errors);
    if (!checked.body) return;
    const result = await activate({ licenseKey, ...checked.body });
    if ('error' in result) {
      const issues = errorBody(result.error)?.issues;
      if (issues) setErrors(issuesByField(issues));
      return;
    }
    const { node, license, created } = result.data;
    const name = node.hostname || node.fingerprint;
    const usage = `${license.activeNodes} of ${plural(license.maxNodes, 'node')} in use`;
    setDone(
      created
        ? `Node ${name} is activated: ${usage}.`
        : `Node ${name} was already activated; its details were updated (${usage}).`,
    );
    if (created) track('license_node_activated', { source: 'portal' });
    setValues({ fingerprint: '', hostname: '' });
    setAttempted(false);
    setErrors({});
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="activate-node-title">
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={3} size="h5" id="activate-node-title">
              Activate a node
            </Title>
            <Text size="sm" c="dimmed">
              Each machine you activate is one node of the license. Use the fingerprint the machine reports, so its own checks
              match this activation.
            </Text>
          </Stack>
          <FieldGrid>
            <TextInput
              label="Fingerprint"
              description="A stable ID of the machine, e.g. /etc/machine-id"
              required
              autoComplete="off"
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              value={values.fingerprint}
              onChange={change('fingerprint')}
              error={errors.fingerprint}
            />
            <TextInput
              label="Hostname"
              description="Optional. Shown in the nodes table"
              autoComplete="off"
              spellCheck={false}
              value={values.hostname}
              onChange={change('hostname')}
              error={errors.hostname}
            />
          </FieldGrid>
          <ErrorDisplay error={error} />
          {done ? (
            <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status">
              {done}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => {
                reset();
                onCancel();
              }}
            >
              Close
            </Button>
            <Button type="submit" loading={isLoading}>
              Activate
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
