import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconReceipt } from '@tabler/icons-react';
import {
  billingDetailsBody,
  billingDetailsFormValues,
  countryName,
  countryOptions,
  needsRegion,
  REASON_MAX_LENGTH,
  ReasonSchema,
  TAX_ID_STATUS_LABELS,
  TAX_ID_TYPE_LABELS,
  TAX_ID_TYPES,
  UpdateBillingDetailsBodySchema,
  formatDate,
  type BillingDetails,
  type TaxIdStatus,
  type TaxIdType,
  type StatusTone,
} from '@portal/contract';
import { useMay } from '../../../lib/permissions';
import { useUpdateCustomerBillingDetailsMutation } from '../api';
import { ErrorDisplay, SectionCard, StatusBadge, useSchemaForm } from '@portal/ui';

const TONE: Record<TaxIdStatus, StatusTone> = {
  valid: 'positive',
  pending: 'warning',
  invalid: 'critical',
  unchecked: 'neutral',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" ta="right" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** The address as one line per part, blanks left out. */
export function addressOf(d: BillingDetails): string[] {
  const place = [d.postalCode, d.city].filter(Boolean).join(' ');
  return [d.line1, d.line2, [place, d.region].filter(Boolean).join(', '), countryName(d.country, 'en')].filter((l): l is string =>
    Boolean(l),
  );
}

/**
 * Who the customer's invoices are made out to, with the tax ID's check; owners and billing staff
 * change them with a reason (later invoices only), support reads them.
 */
export function BillingDetailsCard({ userId, details }: { userId: string; details: BillingDetails | null }) {
  const may = useMay('updateCustomerBillingDetails');
  const [editing, setEditing] = useState(false);
  return (
    <SectionCard
      icon={<IconReceipt size={18} stroke={1.6} />}
      title="Billing details"
      description="Who invoices are made out to"
      gap="sm"
    >
      {details ? (
        <>
          <Fact label="Company">{details.legalName ?? '—'}</Fact>
          <Fact label="Address">
            {addressOf(details).map((l) => (
              <div key={l}>{l}</div>
            ))}
          </Fact>
          <Fact label="Tax ID">
            {details.taxId ? (
              <Stack gap={4} align="flex-end">
                <Text size="sm" ff="monospace">
                  {details.taxId.value}
                </Text>
                <StatusBadge tone={TONE[details.taxId.status]}>{TAX_ID_STATUS_LABELS[details.taxId.status]}</StatusBadge>
                {details.taxId.checkedAt ? (
                  <Text size="xs" c="dimmed">
                    Checked {formatDate(details.taxId.checkedAt)}
                  </Text>
                ) : null}
              </Stack>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label="Invoice recipients">{details.recipients.length ? details.recipients.join(', ') : '—'}</Fact>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          None given yet: invoices carry the customer’s name and e-mail address.
        </Text>
      )}
      {may ? (
        <Group>
          <Button variant="default" size="xs" onClick={() => setEditing(true)}>
            Edit billing details
          </Button>
        </Group>
      ) : null}
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit billing details" size="lg">
        {editing ? <BillingDetailsForm userId={userId} details={details} onClose={() => setEditing(false)} /> : null}
      </Modal>
    </SectionCard>
  );
}

function BillingDetailsForm({
  userId,
  details,
  onClose,
}: {
  userId: string;
  details: BillingDetails | null;
  onClose: () => void;
}) {
  const [update, { isLoading, error }] = useUpdateCustomerBillingDetailsMutation();
  const form = useSchemaForm({
    schema: UpdateBillingDetailsBodySchema,
    initialValues: { ...billingDetailsFormValues(details), reason: '' },
    toInput: billingDetailsBody,
    check: (v) => {
      const r = ReasonSchema.safeParse(v.reason);
      return r.success ? {} : { reason: r.error.issues[0]?.message ?? 'Say why you are doing this' };
    },
  });
  const reason = form.field('reason');
  const taxIdValue = form.field('taxIdValue');
  const taxIdError = form.form.errors['taxId.value'] ?? form.form.errors.taxId ?? taxIdValue.error;

  const submit = form.onSubmit(async (body) => {
    const result = await update({ userId, body: { reason: form.values.reason, details: body } });
    if ('error' in result) {
      form.showServerIssues(result.error);
      return;
    }
    notifications.show({ color: 'green', title: 'Billing details saved', message: result.data.message });
    onClose();
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Billing details">
      <Stack gap="md">
        <Text size="sm">
          The customer’s invoices from now on are made out to these details; issued invoices keep theirs. A new EU VAT number is
          checked with VIES.
        </Text>
        <Select
          label="Country"
          required
          searchable
          data={countryOptions('en')}
          {...form.field('country')}
          onChange={(v) => form.form.setFieldValue('country', v ?? '')}
        />
        <TextInput label="Company name" {...form.field('legalName')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Address line 1" {...form.field('line1')} />
          <TextInput label="Address line 2" {...form.field('line2')} />
          <TextInput label="Postal code" {...form.field('postalCode')} />
          <TextInput label="City" {...form.field('city')} />
          {needsRegion(form.values.country) ? <TextInput label="State or region" required {...form.field('region')} /> : null}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Tax ID type"
            clearable
            data={TAX_ID_TYPES.map((t) => ({ value: t, label: TAX_ID_TYPE_LABELS[t] }))}
            value={form.values.taxIdType || null}
            onChange={(v) => form.form.setFieldValue('taxIdType', (v ?? '') as TaxIdType | '')}
          />
          <TextInput
            label="Tax ID"
            disabled={!form.values.taxIdType}
            value={taxIdValue.value}
            onChange={taxIdValue.onChange}
            error={taxIdError}
          />
        </SimpleGrid>
        <TextInput
          label="Invoice recipients"
          description="E-mail addresses that get a copy of each invoice, separated by commas"
          {...form.field('recipients')}
        />
        <Textarea
          label="Reason"
          description="Kept in the staff audit log with your address and the time."
          autosize
          minRows={2}
          maxLength={REASON_MAX_LENGTH}
          required
          value={reason.value}
          error={reason.error}
          onChange={(e) => reason.onChange(e.currentTarget.value)}
        />
        {error ? <ErrorDisplay error={error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isLoading}>
            Save billing details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
