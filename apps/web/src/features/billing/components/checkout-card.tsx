import { useId, useMemo, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCreditCard, IconPlus } from '@tabler/icons-react';
import {
  cardBrandLabel,
  CheckoutBodySchema,
  COUNTRY_CODES,
  type Interval,
  intervalLabel,
  type PaymentMethod,
  plural,
  QUANTITY_MAX,
  QUANTITY_MIN,
  quantityProblem,
  type Subscription,
  formatDate,
  formatMoney,
} from '@portal/contract';
import { api, useGetConfigQuery } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/state/hooks';
import { setHighlight } from '../../../lib/state/license-slice';
import {
  useCheckoutMutation,
  useGetBillingDetailsQuery,
  useListPricesQuery,
  usePreviewCheckoutQuery,
  useUpdateBillingDetailsMutation,
} from '../api';
import { TaxRows } from './charge-preview';
import { addInterval, periodTotal, yearlySaving } from '../billing-display';
import { getStripe, STRIPE_UNAVAILABLE, stripeError } from '../stripe/stripe-js';
import { newIdempotencyKey } from '../idempotency-key';
import { QuantityInput } from './quantity-input';
import { SectionHeader } from './section-header';
import classes from './billing.module.css';
import { ErrorDisplay, useSchemaForm, errorMessage } from '@portal/ui';

const newKey = newIdempotencyKey;

export interface CheckoutCardProps {
  methods: PaymentMethod[] | undefined;
  methodsLoading: boolean;
  /** 'first' when the customer has no subscription yet: the card is the page's main call to action. */
  variant: 'first' | 'another';
  onSubscribed?: (subscription: Subscription) => void;
}

/**
 * Buying a subscription: monthly or yearly, 1..99 nodes, the total per period computed from the
 * plan's prices (and what yearly saves), the card to charge, and Subscribe.
 */
export function CheckoutCard({ methods, methodsLoading, variant, onSubscribed }: CheckoutCardProps) {
  const dispatch = useAppDispatch();
  const periodLabelId = useId();
  const {
    data: price,
    error: priceError,
    isLoading: priceLoading,
    refetch: refetchPrice,
    isFetching: priceFetching,
  } = useListPricesQuery();
  const [checkout, { isLoading, error, reset }] = useCheckoutMutation();
  // One purchase, one key: a retry after a network error cannot charge twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newKey);
  // A first payment the bank wants confirmed (3-D Secure), done with Stripe.js here.
  const [pending, setPending] = useState<{ clientSecret: string; cardId: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmError, setConfirmError] = useState<unknown>(null);
  const { data: config } = useGetConfigQuery();
  // A customer who already subscribes sees a short prompt; the form opens on request.
  const [expanded, setExpanded] = useState(variant === 'first');

  const cards = methods ?? [];
  // No card chosen yet: the default card (else the first) is the one charged.
  const chosen = (id: string) => cards.find((c) => c.id === id) ?? cards.find((c) => c.isDefault) ?? cards[0] ?? null;
  const form = useSchemaForm({
    schema: CheckoutBodySchema,
    initialValues: { interval: 'month' as Interval, quantity: 1 as number | string, paymentMethodId: '' },
    toInput: (v) => ({ interval: v.interval, quantity: Number(v.quantity), paymentMethodId: chosen(v.paymentMethodId)?.id }),
    check: (v) => ({ quantity: quantityProblem(v.quantity) }),
  });
  const { interval, quantity } = form.values;
  const n = quantityProblem(quantity) ? null : Number(quantity);
  const selected = chosen(form.values.paymentMethodId);
  const money = (amount: number) => (price ? formatMoney(amount, price.currency) : '');
  const saving = price ? yearlySaving(price, n ?? 1) : null;
  // A seller that charges VAT: the tax depends on the buyer's country, asked before the first checkout.
  const taxed = price?.taxAdded === true;
  const detailsQuery = useGetBillingDetailsQuery(taxed ? undefined : skipToken);
  const needsCountry = taxed && detailsQuery.data?.details === null;
  const [country, setCountry] = useState<string | null>(null);
  const [countryError, setCountryError] = useState<string | null>(null);
  const [saveDetails, { isLoading: savingDetails }] = useUpdateBillingDetailsMutation();
  const taxPreview = usePreviewCheckoutQuery(taxed && n && detailsQuery.data?.details ? { interval, quantity: n } : skipToken);
  const countries = useMemo(() => {
    if (!taxed) return [];
    const names = new Intl.DisplayNames(undefined, { type: 'region' });
    return COUNTRY_CODES.map((c) => ({ value: c, label: names.of(c) ?? c })).sort((a, b) => a.label.localeCompare(b.label));
  }, [taxed]);

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
      form.reset({ ...form.values, quantity: 1 });
      if (variant === 'another') setExpanded(false);
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

  const change = () => {
    reset();
    setIdempotencyKey(newKey());
  };

  const onSubmit = form.onSubmit(async (body) => {
    if (!selected) return;
    if (needsCountry) {
      if (!country) return setCountryError('Choose the country of your billing address');
      const saved = await saveDetails({ country });
      if ('error' in saved) return setCountryError(errorMessage(saved.error));
      setCountryError(null);
    }
    const result = await checkout({ body, idempotencyKey });
    if ('error' in result) return;
    const { subscription, clientSecret } = result.data;
    setIdempotencyKey(newKey());
    if (subscription.status === 'incomplete' || clientSecret) {
      setPending(clientSecret ? { clientSecret, cardId: selected.id } : null);
      return;
    }
    if (subscription.licenseKey) dispatch(setHighlight(subscription.licenseKey));
    notifications.show({
      color: 'green',
      title: 'Subscription started',
      message: subscription.licenseKey
        ? `Your license key ${subscription.licenseKey} is ready for ${plural(subscription.quantity, 'node')}.`
        : 'Your license key is being issued.',
    });
    form.reset({ ...form.values, quantity: 1 });
    if (variant === 'another') setExpanded(false);
    onSubscribed?.(subscription);
  });

  const title = variant === 'first' ? 'Start a subscription' : 'Add a subscription';
  const description =
    variant === 'first'
      ? 'Choose how many nodes to license and how often to pay. Your license key is issued at once.'
      : 'Another license key, with its own number of nodes and billing period.';

  if (!expanded) {
    return (
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="billing-checkout-title">
        <SectionHeader
          title={<span id="billing-checkout-title">{title}</span>}
          description={description}
          action={
            <Button variant="light" size="sm" leftSection={<IconPlus size={16} />} onClick={() => setExpanded(true)}>
              New subscription
            </Button>
          }
        />
      </Paper>
    );
  }

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="billing-checkout-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SectionHeader
            title={<span id="billing-checkout-title">{title}</span>}
            description={description}
            action={
              variant === 'another' ? (
                <Button variant="subtle" color="gray" size="sm" onClick={() => setExpanded(false)}>
                  Close
                </Button>
              ) : null
            }
          />
          {priceLoading ? (
            <Stack gap="sm" aria-busy="true" aria-label="Loading prices">
              <Skeleton height={36} />
              <Skeleton height={36} />
              <Skeleton height={80} />
            </Stack>
          ) : priceError || !price ? (
            <ErrorDisplay error={priceError} onRetry={priceError ? refetchPrice : undefined} retrying={priceFetching} />
          ) : (
            <>
              <Stack gap={6}>
                <Text component="div" size="sm" fw={500} id={periodLabelId}>
                  Billing period
                </Text>
                <SegmentedControl
                  aria-labelledby={periodLabelId}
                  fullWidth
                  value={interval}
                  onChange={(v) => {
                    form.form.setFieldValue('interval', v as Interval);
                    change();
                  }}
                  data={[
                    { value: 'month', label: 'Billed monthly' },
                    {
                      value: 'year',
                      label:
                        saving && saving.percent > 0 ? (
                          <Group gap={6} justify="center" wrap="nowrap">
                            <span>Billed yearly</span>
                            <Badge size="xs" variant="light" color="green" radius="sm">
                              Save {saving.percent}%
                            </Badge>
                          </Group>
                        ) : (
                          'Billed yearly'
                        ),
                    },
                  ]}
                />
              </Stack>
              <QuantityInput
                label="Number of nodes"
                description={`Each node is one machine running the product; ${QUANTITY_MIN} to ${QUANTITY_MAX}.`}
                required
                {...form.field('quantity')}
                onChange={(v) => {
                  form.form.setFieldValue('quantity', v);
                  change();
                }}
                onBlur={form.reveal}
              />
              <Paper radius="md" p="md" bg="var(--mantine-color-default-hover)" role="group" aria-label="Price">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Text size="sm" c="dimmed">
                      {n ?? '–'} × {money(interval === 'month' ? price.monthUnitAmount : price.yearUnitAmount)} per node
                    </Text>
                    <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {n ? money(periodTotal(price, interval, n)) : '–'}
                    </Text>
                  </Group>
                  {interval === 'year' && n && saving && saving.amount > 0 ? (
                    <Text size="sm" className={classes.saving} fw={500}>
                      You save {money(saving.amount)} a year compared with monthly billing.
                    </Text>
                  ) : null}
                  {interval === 'month' && n && saving && saving.amount > 0 ? (
                    <Text size="sm" c="dimmed">
                      Pay yearly to save {money(saving.amount)} a year.
                    </Text>
                  ) : null}
                  {taxed && taxPreview.data && n ? (
                    <Table fz="sm" verticalSpacing={2} horizontalSpacing={0} withRowBorders={false} aria-label="Tax">
                      <Table.Tbody>
                        <TaxRows
                          money={money}
                          subtotal={taxPreview.data.subtotal}
                          taxLines={taxPreview.data.taxLines}
                          total={taxPreview.data.total}
                        />
                      </Table.Tbody>
                    </Table>
                  ) : null}
                  {taxed && taxPreview.data?.taxNote ? (
                    <Text size="xs" c="dimmed">
                      {taxPreview.data.taxNote}
                    </Text>
                  ) : null}
                  <Divider my={4} />
                  <Group justify="space-between" align="baseline" wrap="nowrap" gap="sm">
                    <Text fw={600}>Total per {interval}</Text>
                    <Text fw={700} size="xl" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {n ? money(taxed && taxPreview.data ? taxPreview.data.total : periodTotal(price, interval, n)) : '–'}
                    </Text>
                  </Group>
                  <Text size="xs" c="dimmed">
                    Charged today, then {intervalLabel(interval)} from {formatDate(addInterval(new Date(), interval))} until you
                    cancel.{' '}
                    {taxed
                      ? taxPreview.data
                        ? 'VAT as shown, from your billing details.'
                        : 'VAT is added according to your billing country.'
                      : 'Prices exclude any taxes that apply.'}
                  </Text>
                </Stack>
              </Paper>
              {needsCountry ? (
                <Select
                  label="Billing country"
                  description="Tax depends on it. Add the rest of your billing details any time."
                  required
                  searchable
                  autoComplete="country"
                  data={countries}
                  value={country}
                  error={countryError}
                  onChange={(v) => {
                    setCountry(v);
                    setCountryError(null);
                  }}
                />
              ) : null}
              {methodsLoading ? (
                <Skeleton height={36} />
              ) : cards.length === 0 ? (
                // One way to add a card on the page: the Payment methods card's button.
                <Group gap="xs" wrap="nowrap" c="dimmed">
                  <IconCreditCard size={16} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
                  <Text size="sm" c="dimmed">
                    Add a card under Payment methods to subscribe.
                  </Text>
                </Group>
              ) : cards.length === 1 && selected ? (
                <Text size="sm" c="dimmed">
                  Paid with {cardBrandLabel(selected.brand)} ending in {selected.last4}.
                </Text>
              ) : (
                <Select
                  label="Pay with"
                  allowDeselect={false}
                  value={selected?.id ?? null}
                  onChange={(v) => {
                    form.form.setFieldValue('paymentMethodId', v ?? '');
                    change();
                  }}
                  data={cards.map((c) => ({
                    value: c.id,
                    label: `${cardBrandLabel(c.brand)} ending in ${c.last4}${c.isDefault ? ' (default)' : ''}`,
                  }))}
                />
              )}
              {pending ? (
                <Alert
                  role="note"
                  variant="light"
                  color="yellow"
                  icon={<IconAlertTriangle size={18} />}
                  title="Confirm this payment"
                >
                  <Stack gap="xs" align="flex-start">
                    <Text size="sm">
                      Your bank asks you to confirm this payment. Until it is confirmed the subscription waits for its first
                      payment.
                    </Text>
                    <ErrorDisplay error={confirmError} />
                    <Button size="xs" loading={confirming} onClick={() => void confirmPayment()}>
                      Confirm payment
                    </Button>
                  </Stack>
                </Alert>
              ) : null}
              <ErrorDisplay error={error} />
              {/* Until the pending payment is confirmed, a second Subscribe would buy a second subscription. */}
              {pending ? null : (
                <Button
                  type="submit"
                  size="md"
                  loading={isLoading || savingDetails}
                  disabled={cards.length === 0 || methodsLoading}
                >
                  Subscribe
                </Button>
              )}
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
