import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { FingerprintSchema, formatDateTime } from '@portal/contract';
import { track } from '../../../lib/analytics';
import { useValidateLicenseMutation } from '../api';
import { explainValidation, TONE_COLOR } from '../license-display';
import { ErrorDisplay, licenseTextClasses, type Tone } from '@portal/ui';

const TONE_ICON: Record<Tone, typeof IconCircleCheck> = {
  ok: IconCircleCheck,
  warn: IconAlertTriangle,
  danger: IconCircleX,
  neutral: IconInfoCircle,
};

/**
 * Checks the license as a node would, and says the answer in words. It checks the key at once
 * when opened; a fingerprint checks one node on it.
 */
export function ValidatePanel({ licenseKey, onClose }: { licenseKey: string; onClose: () => void }) {
  const [validate, { data, error, isLoading, reset }] = useValidateLicenseMutation();
  const [fingerprint, setFingerprint] = useState('');
  const [checked, setChecked] = useState<string | undefined>(undefined);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);

  const run = async (fp: string | undefined) => {
    setChecked(fp);
    const result = await validate({ licenseKey, ...(fp ? { fingerprint: fp } : {}) });
    if ('data' in result && result.data) track('license_validated', { code: result.data.code, with_fingerprint: Boolean(fp) });
  };

  // Opening the panel is the request to validate: check the key once (a ref, so a development
  // double mount does not check twice).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run(undefined);
  }, []); // once, when the panel opens

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    let fp: string | undefined;
    if (fingerprint.trim()) {
      const parsed = FingerprintSchema.safeParse(fingerprint);
      if (!parsed.success) {
        setFieldError(parsed.error.issues[0]?.message);
        return;
      }
      fp = parsed.data;
    }
    setFieldError(undefined);
    await run(fp);
  };

  const answer = data ? explainValidation(data, { fingerprint: checked }) : null;
  const Icon = answer ? TONE_ICON[answer.tone] : IconInfoCircle;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="validate-title">
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={3} size="h5" id="validate-title">
              Validate
            </Title>
            <Text size="sm" c="dimmed">
              The same check a node makes at start-up and then regularly. Add a fingerprint to check one node.
            </Text>
          </Stack>
          <div aria-live="polite">
            {answer && data && !isLoading ? (
              <Alert
                variant="light"
                color={TONE_COLOR[answer.tone]}
                icon={<Icon size={18} />}
                title={
                  <span className={licenseTextClasses.tone} data-tone={answer.tone}>
                    {answer.title}
                  </span>
                }
              >
                <Stack gap={4}>
                  <Text size="sm">{answer.text}</Text>
                  <Text size="xs" c="dimmed">
                    Checked {formatDateTime(data.checkedAt)}
                    {checked ? (
                      <>
                        {' '}
                        for fingerprint <span className={licenseTextClasses.key}>{checked}</span>
                      </>
                    ) : null}
                  </Text>
                </Stack>
              </Alert>
            ) : null}
          </div>
          <ErrorDisplay error={error} />
          <TextInput
            label="Fingerprint"
            description="Optional: leave empty to check the key alone"
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={fingerprint}
            onChange={(e) => {
              setFingerprint(e.currentTarget.value);
              setFieldError(undefined);
            }}
            error={fieldError}
          />
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => {
                reset();
                onClose();
              }}
            >
              Close
            </Button>
            <Button type="submit" variant="light" loading={isLoading}>
              Check again
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
