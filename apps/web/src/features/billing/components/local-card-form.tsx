import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCreditCard, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { cardBrand, cardBrandLabel, type PaymentMethod } from '@portal/contract';
import { useConfirmLocalSetupMutation, useCreateSetupIntentMutation } from '../api';
import {
  caretAfterDigits,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  cvcLength,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
} from '../card-input';
import { ErrorDisplay, errorStatus, BrandIcon } from '@portal/ui';

type Field = 'number' | 'expiry' | 'cvc';
type Values = Record<Field, string>;

function check(values: Values): Record<Field, string | null> {
  return {
    number: checkCardNumber(values.number),
    expiry: checkExpiry(values.expiry),
    cvc: checkCvc(values.cvc, values.number),
  };
}

export interface LocalCardFormProps {
  onAdded: (card: PaymentMethod) => void;
  onCancel: () => void;
}

/**
 * The local billing engine's card form: our own accessible fields (number grouped as typed,
 * MM/YY expiry, CVC), checked inline, posted once to /api/billing/local/confirm-setup with the
 * setup intent's client secret. The number goes to the server in that one request and is never
 * stored, here or there.
 */
export function LocalCardForm({ onAdded, onCancel }: LocalCardFormProps) {
  const [createIntent, intent] = useCreateSetupIntentMutation();
  const [confirm, confirmation] = useConfirmLocalSetupMutation();
  const [values, setValues] = useState<Values>({ number: '', expiry: '', cvc: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({ number: false, expiry: false, cvc: false });
  const errors = check(values);
  // The brand as soon as the first digits tell it, as Stripe's card field shows it.
  const brand = cardBrand(digitsOf(values.number));
  const known = brand !== 'unknown';

  useEffect(() => {
    void createIntent();
  }, [createIntent]);

  const set = (field: Field, value: string) => setValues((v) => ({ ...v, [field]: value }));
  const blur = (field: Field) => () => setTouched((t) => ({ ...t, [field]: t[field] || values[field] !== '' }));
  const shown = (field: Field) => (touched[field] ? errors[field] : null);

  const onNumber = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const caret = input.selectionStart ?? input.value.length;
    const digitsBefore = digitsOf(input.value.slice(0, caret)).length;
    const formatted = formatCardNumber(input.value);
    set('number', formatted);
    // Keep the caret after the same digit when a space is added or removed before it.
    requestAnimationFrame(() => {
      if (document.activeElement === input) {
        const at = caretAfterDigits(formatted, digitsBefore);
        input.setSelectionRange(at, at);
      }
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ number: true, expiry: true, cvc: true });
    const expiry = parseExpiry(values.expiry);
    if (errors.number || errors.expiry || errors.cvc || !expiry || !intent.data) return;
    const result = await confirm({
      clientSecret: intent.data.clientSecret,
      number: digitsOf(values.number),
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: values.cvc,
    });
    if ('error' in result) {
      // A setup that was used or lost cannot be retried: start a fresh one for the next attempt.
      const status = errorStatus(result.error);
      if (status === 404 || status === 409) void createIntent();
      return;
    }
    onAdded(result.data.paymentMethod);
  };

  if (intent.isError && !intent.data) {
    return (
      <Stack gap="md">
        <ErrorDisplay error={intent.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => void createIntent()}>Try again</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card details">
      <Stack gap="md">
        <Alert role="note" variant="light" color="blue" icon={<IconInfoCircle size={18} />} py="xs">
          <Text size="sm">
            Test mode: use 4242 4242 4242 4242 with any future expiry date and any CVC. No real card is charged.
          </Text>
        </Alert>
        <TextInput
          label="Card number"
          placeholder="1234 1234 1234 1234"
          inputMode="numeric"
          autoComplete="cc-number"
          required
          data-autofocus
          leftSection={known ? <BrandIcon brand={brand} size="sm" /> : <IconCreditCard size={18} stroke={1.6} />}
          rightSection={
            known ? (
              <Text size="xs" fw={600} c="dimmed" data-testid="card-brand">
                {cardBrandLabel(brand)}
              </Text>
            ) : null
          }
          rightSectionWidth={known ? 128 : undefined}
          rightSectionProps={{ style: { justifyContent: 'flex-end', paddingRight: 12 }, 'aria-live': 'polite' }}
          maxLength={23}
          value={values.number}
          onChange={onNumber}
          onBlur={blur('number')}
          error={shown('number')}
        />
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            label="Expiry date"
            placeholder="MM/YY"
            description="MM/YY"
            inputMode="numeric"
            autoComplete="cc-exp"
            required
            maxLength={5}
            value={values.expiry}
            onChange={(e) => set('expiry', formatExpiry(e.currentTarget.value))}
            onBlur={blur('expiry')}
            error={shown('expiry')}
          />
          <TextInput
            label="Security code"
            placeholder={cvcLength(values.number) === 4 ? '1234' : '123'}
            description={`CVC, ${cvcLength(values.number)} digits`}
            inputMode="numeric"
            autoComplete="cc-csc"
            required
            maxLength={cvcLength(values.number)}
            value={values.cvc}
            onChange={(e) => set('cvc', digitsOf(e.currentTarget.value).slice(0, cvcLength(values.number)))}
            onBlur={blur('cvc')}
            error={shown('cvc')}
          />
        </SimpleGrid>
        <ErrorDisplay error={confirmation.error} />
        <Group gap={6} wrap="nowrap" c="dimmed">
          <IconLock size={14} stroke={1.8} aria-hidden />
          <Text size="xs" c="dimmed">
            We keep only the brand, the last four digits and the expiry date.
          </Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={confirmation.isLoading}>
            Cancel
          </Button>
          <Button type="submit" loading={confirmation.isLoading || !intent.data}>
            Save card
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
