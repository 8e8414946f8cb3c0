import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import {
  type BillingDetailsFormValues,
  billingDetailsBody,
  billingDetailsFormValues,
  euVatFormatOf,
  countryOptions,
  needsRegion,
  TAX_ID_TYPE_LABELS,
  TAX_ID_TYPES,
  type BillingDetails,
  type TaxIdStatus,
  type TaxIdType,
  type StatusTone,
} from '@portal/contract';
import { FieldGrid } from '../../../components/form/field-grid';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useGetBillingDetailsQuery, useUpdateBillingDetailsMutation } from '../api';
import { ItemSkeletons } from './billing-skeleton';
import { SectionHeader } from './section-header';
import { ErrorDisplay, useSchemaForm, StatusBadge } from '@portal/ui';

/** The billing details' schema, loaded with the validation code at the first key or pointer press (docs/decisions/140). */
const billingDetailsSchema = () => loadSchemas().then((s) => s.UpdateBillingDetailsBodySchema);

const STATUS: Record<TaxIdStatus, { tone: StatusTone; label: string; help: string }> = {
  valid: { tone: 'positive', label: 'Valid', help: 'Confirmed by VIES, the EU’s VAT number check.' },
  pending: {
    tone: 'warning',
    label: 'Being checked',
    help: 'VIES could not be reached. We check it again shortly; until then VAT is charged as for a consumer.',
  },
  invalid: {
    tone: 'critical',
    label: 'Not valid',
    help: 'VIES does not know this VAT number, so VAT is charged. Check the number and save it again.',
  },
  unchecked: { tone: 'neutral', label: 'Saved', help: 'Shown on your invoices.' },
};

/** The billing details invoices are made out to: company, address (country first), tax ID, finance recipients. */
/** The VAT number's expected form for the chosen country, or an example until one is chosen. */
const euVatDescription = (country: string) => {
  const format = euVatFormatOf(country);
  return format ? `With the country prefix: ${format}.` : 'With the country prefix, e.g. DE123456789.';
};

export function BillingDetailsCard() {
  const { data, error: loadError, isLoading, refetch, isFetching } = useGetBillingDetailsQuery();
  const details = data?.details ?? null;
  if (isLoading) {
    return (
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} aria-busy="true" aria-label="Loading billing details">
        <ItemSkeletons count={2} />
      </Paper>
    );
  }
  if (loadError) {
    return (
      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <ErrorDisplay error={loadError} onRetry={refetch} retrying={isFetching} />
      </Paper>
    );
  }
  return (
    <BillingDetailsForm key={details?.updatedAt ?? 'none'} details={details} addressNeeded={data?.taxAddressNeeded === true} />
  );
}

/**
 * Stripe Tax: a subscription waits for the billing address before tax is calculated on it; details
 * saved before the tax was turned on are confirmed (saved again) to reach it.
 */
export const ADDRESS_NEEDED = 'Your billing address is needed to calculate the tax on your subscription. Add it below.';
export const ADDRESS_TO_CONFIRM =
  'Your billing address is needed to calculate the tax on your subscription. Check it below and save it.';

function BillingDetailsForm({ details, addressNeeded }: { details: BillingDetails | null; addressNeeded: boolean }) {
  const [update, { isLoading, error, reset }] = useUpdateBillingDetailsMutation();
  const form = useSchemaForm({
    schema: billingDetailsSchema,
    initialValues: billingDetailsFormValues(details),
    toInput: billingDetailsBody,
  });
  const saved = billingDetailsFormValues(details);
  const dirty = (Object.keys(saved) as Array<keyof BillingDetailsFormValues>).some(
    (k) => form.values[k].trim() !== saved[k].trim(),
  );
  const status = details?.taxId ? STATUS[details.taxId.status] : null;

  const onSubmit = form.onSubmit(async (body) => {
    const result = await update(body);
    if ('error' in result) return form.showServerIssues(result.error);
    notifications.show({
      color: 'green',
      icon: <IconCheck size={18} />,
      title: 'Billing details saved',
      message: 'Your next invoices are made out to these details.',
    });
  });
  // Issues of the nested tax ID are shown on its value field.
  const taxIdValue = form.field('taxIdValue');
  const taxIdError = form.form.errors['taxId.value'] ?? form.form.errors.taxId ?? taxIdValue.error;

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="billing-details-title">
      <form onSubmit={onSubmit} noValidate aria-label="Billing details">
        <Stack gap="md">
          <SectionHeader
            title={<span id="billing-details-title">Billing details</span>}
            description="Who your invoices are made out to. Changes apply to your next invoices."
          />
          {addressNeeded ? (
            <Alert role="note" variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} py="sm">
              {details ? ADDRESS_TO_CONFIRM : ADDRESS_NEEDED}
            </Alert>
          ) : null}
          <Select
            label="Country"
            description="Tax depends on it."
            required
            searchable
            autoComplete="country"
            data={countryOptions()}
            {...form.field('country')}
            onChange={(v) => form.form.setFieldValue('country', v ?? '')}
          />
          <TextInput
            label="Company name"
            description="Leave empty if you buy as a private person."
            autoComplete="organization"
            {...form.field('legalName')}
          />
          <FieldGrid from="sm">
            <TextInput label="Address line 1" autoComplete="address-line1" {...form.field('line1')} />
            <TextInput label="Address line 2" autoComplete="address-line2" {...form.field('line2')} />
            <TextInput label="Postal code" autoComplete="postal-code" {...form.field('postalCode')} />
            <TextInput label="City" autoComplete="address-level2" {...form.field('city')} />
            {needsRegion(form.values.country) ? (
              <TextInput label="State or region" required autoComplete="address-level1" {...form.field('region')} />
            ) : null}
          </FieldGrid>
          {/* One above the other: side by side in the narrow column, the type's label was cut and the fields misaligned. */}
          <Stack gap="md">
            <Select
              label="Tax ID type"
              clearable
              data={TAX_ID_TYPES.map((t) => ({ value: t, label: TAX_ID_TYPE_LABELS[t] }))}
              value={form.values.taxIdType || null}
              onChange={(v) => form.form.setFieldValue('taxIdType', (v ?? '') as TaxIdType | '')}
            />
            <TextInput
              label="Tax ID"
              description={form.values.taxIdType === 'eu_vat' ? euVatDescription(form.values.country) : undefined}
              disabled={!form.values.taxIdType}
              {...taxIdValue}
              error={taxIdError}
            />
          </Stack>
          {status && details?.taxId ? (
            <Group gap="xs" wrap="nowrap" align="flex-start" role="status">
              <StatusBadge tone={status.tone} size="sm">
                {status.label}
              </StatusBadge>
              <Text size="xs" c={details.taxId.status === 'invalid' ? 'red' : 'dimmed'}>
                {details.taxId.value}: {status.help}
              </Text>
            </Group>
          ) : null}
          <TextInput
            label="Invoice recipients"
            description="Optional. Finance addresses that receive invoices too, separated by commas."
            {...form.field('recipients')}
            error={
              form.form.errors.recipients ?? Object.entries(form.form.errors).find(([k]) => k.startsWith('recipients.'))?.[1]
            }
          />
          <ErrorDisplay error={error} />
          <Group gap="sm">
            <Button type="submit" loading={isLoading} disabled={!dirty && details !== null && !addressNeeded}>
              Save billing details
            </Button>
            {dirty && details ? (
              <Button
                variant="default"
                onClick={() => {
                  form.reset(saved);
                  reset();
                }}
                disabled={isLoading}
              >
                Discard changes
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
