import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe } from '@stripe/stripe-js';
import { IconLock } from '@tabler/icons-react';
import type { PaymentMethod } from '@portal/contract';
import { useCreateSetupIntentMutation, useLazyListPaymentMethodsQuery } from '../api';
import { getStripe, STRIPE_UNAVAILABLE, stripeError } from '../stripe/stripe-js';
import { ErrorDisplay } from '@portal/ui';

export interface StripeCardFormProps {
  /** The saved card as the portal lists it, or null when the list does not show it yet. */
  onAdded: (card: PaymentMethod | null) => void;
  onCancel: () => void;
}

/**
 * Adding a card on Stripe: the card is typed into Stripe's Payment Element (Stripe.js, in Stripe's
 * frame), confirmed against a SetupIntent the server created, and attached by Stripe; the number
 * never reaches the portal. The server learns of the card from Stripe (the methods list reads it
 * from Stripe, and the setup_intent.succeeded webhook makes a first card the default).
 */
export function StripeCardForm({ onAdded, onCancel }: StripeCardFormProps) {
  const [createIntent, intent] = useCreateSetupIntentMutation();
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const appearance = useAppearance();
  const key = intent.data?.publishableKey;

  useEffect(() => {
    void createIntent();
  }, [createIntent]);

  const load = useCallback(() => {
    if (!key) return;
    setLoadError(null);
    getStripe(key).then(setStripe, () => setLoadError(stripeError(undefined, STRIPE_UNAVAILABLE)));
  }, [key]);
  useEffect(load, [load]);

  const failure = intent.isError ? intent.error : intent.data && !key ? stripeError(undefined, NO_KEY) : loadError;
  if (failure) {
    return (
      <Stack gap="md">
        <ErrorDisplay error={failure} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => (intent.isError ? void createIntent() : load())}>Try again</Button>
        </Group>
      </Stack>
    );
  }
  if (!stripe || !intent.data) return <FormSkeleton />;
  return (
    // A new setup (new client secret) mounts a new Payment Element.
    <Elements key={intent.data.clientSecret} stripe={stripe} options={{ clientSecret: intent.data.clientSecret, appearance }}>
      <CardFields onAdded={onAdded} onCancel={onCancel} onSpent={() => void createIntent()} />
    </Elements>
  );
}

const NO_KEY = 'Card entry is not configured: the Stripe publishable key is missing. Please contact support.';

function CardFields({ onAdded, onCancel, onSpent }: StripeCardFormProps & { onSpent: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [listMethods] = useLazyListPaymentMethodsQuery();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || submitting) return;
    setError(null);
    setSubmitting(true);
    try {
      // Stripe checks the fields first and shows what is missing beside them.
      const checked = await elements.submit();
      if (checked.error) {
        setError(stripeError(checked.error, 'Please check the card details.'));
        return;
      }
      // Cards that need 3-D Secure open Stripe's own dialog; no card here needs a redirect.
      const result = await stripe.confirmSetup({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href },
      });
      if (result.error) {
        setError(stripeError(result.error, 'Your card could not be saved.'));
        // A setup that already succeeded or failed for good cannot be confirmed again.
        if (result.error.type === 'invalid_request_error') onSpent();
        return;
      }
      const pm = result.setupIntent.payment_method;
      const id = typeof pm === 'string' ? pm : pm?.id;
      const list = await listMethods(undefined, false);
      onAdded(list.data?.items.find((c) => c.id === id) ?? null);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card details">
      <Stack gap="md">
        {!ready ? <FormSkeleton fieldsOnly /> : null}
        <PaymentElement
          options={{ layout: 'tabs', fields: { billingDetails: 'auto' } }}
          onReady={() => setReady(true)}
          onLoadError={(e) => setError(stripeError(e.error, STRIPE_UNAVAILABLE))}
        />
        <ErrorDisplay error={error} />
        <Group gap={6} wrap="nowrap" c="dimmed">
          <IconLock size={14} stroke={1.8} aria-hidden />
          <Text size="xs" c="dimmed">
            Your card details go to Stripe, our payment processor. We keep only the brand, the last four digits and the expiry
            date.
          </Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting} disabled={!ready}>
            Save card
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function FormSkeleton({ fieldsOnly = false }: { fieldsOnly?: boolean }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the secure card form">
      <Skeleton height={40} radius="md" />
      <Group grow gap="sm">
        <Skeleton height={40} radius="md" />
        <Skeleton height={40} radius="md" />
      </Group>
      {fieldsOnly ? null : (
        <Alert role="status" variant="light" color="gray" py="xs">
          <Text size="sm" c="dimmed">
            Loading Stripe&apos;s secure card form…
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

/** Stripe's form in the portal's colours, type and corners, light or dark like the page. */
function useAppearance(): Appearance {
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  return {
    theme: scheme === 'dark' ? 'night' : 'stripe',
    variables: {
      colorPrimary: theme.colors[theme.primaryColor]?.[scheme === 'dark' ? 4 : 6] ?? '#228be6',
      colorDanger: theme.colors.red?.[scheme === 'dark' ? 5 : 7] ?? '#e03131',
      fontFamily: theme.fontFamily ?? 'system-ui, sans-serif',
      borderRadius: '8px',
      spacingUnit: '4px',
    },
  };
}
