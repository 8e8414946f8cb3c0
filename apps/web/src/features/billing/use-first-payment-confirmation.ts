import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { api, useGetConfigQuery } from '../../lib/api';
import { useAppDispatch } from '../../lib/state/hooks';
import { getStripe, STRIPE_UNAVAILABLE, stripeError } from './stripe/stripe-js';

/**
 * A first payment the bank wants confirmed (3-D Secure), done with Stripe.js: `pending` holds what
 * the checkout answered until the customer confirms; `onConfirmed` runs once Stripe.js has paid.
 */
export function useFirstPaymentConfirmation(onConfirmed: () => void) {
  const dispatch = useAppDispatch();
  const { data: config } = useGetConfigQuery();
  const [pending, setPending] = useState<{ clientSecret: string; cardId: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmError, setConfirmError] = useState<unknown>(null);

  const confirmPayment = async () => {
    const key = config?.stripePublishableKey;
    if (!pending || !key) return;
    setConfirming(true);
    setConfirmError(null);
    try {
      const stripe = await getStripe(key);
      // Stripe.js shows the bank's own check in its dialog and pays the first invoice.
      const result = await stripe.confirmCardPayment(pending.clientSecret, { payment_method: pending.cardId });
      if (result.error) {
        setConfirmError(stripeError(result.error, 'The payment could not be confirmed.'));
        return;
      }
      setPending(null);
      onConfirmed();
      dispatch(api.util.invalidateTags(['Billing', 'Licenses']));
      notifications.show({
        color: 'green',
        title: 'Payment confirmed',
        message: 'Your subscription starts as soon as Stripe reports the payment, usually within seconds.',
      });
    } catch {
      setConfirmError(stripeError(undefined, STRIPE_UNAVAILABLE));
    } finally {
      setConfirming(false);
    }
  };

  return { pending, setPending, confirming, confirmError, confirmPayment };
}
