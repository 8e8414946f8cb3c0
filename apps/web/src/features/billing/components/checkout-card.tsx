import { useId, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Badge, Button, Group, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import {
  type Interval,
  type PaymentMethod,
  plural,
  QUANTITY_MAX,
  QUANTITY_MIN,
  quantityProblem,
  type Subscription,
  formatMoney,
} from '@portal/contract';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useAppDispatch } from '../../../lib/state/hooks';
import { setHighlight } from '../../../lib/state/license-slice';
import { useCheckoutMutation, useListPricesQuery, usePreviewCheckoutQuery } from '../api';
import { yearlySaving } from '../billing-display';
import { newIdempotencyKey } from '../idempotency-key';
import { useCheckoutCountry } from '../use-checkout-country';
import { useFirstPaymentConfirmation } from '../use-first-payment-confirmation';
import { CheckoutPaymentMethod } from './checkout-payment-method';
import { CheckoutPriceSummary } from './checkout-price-summary';
import { ConfirmPaymentAlert } from './confirm-payment-alert';
import { QuantityInput } from './quantity-input';
import { SectionHeader } from './section-header';
import { SegmentedChoice } from './segmented-choice';
import { ErrorDisplay, useSchemaForm } from '@portal/ui';

const newKey = newIdempotencyKey;
/** The checkout's schema, loaded with the validation code at the first key or pointer press (docs/decisions/140). */
const checkoutSchema = () => loadSchemas().then((s) => s.CheckoutBodySchema);

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
  // A customer who already subscribes sees a short prompt; the form opens on request.
  const [expanded, setExpanded] = useState(variant === 'first');

  const cards = methods ?? [];
  // No card chosen yet: the default card (else the first) is the one charged.
  const chosen = (id: string) => cards.find((c) => c.id === id) ?? cards.find((c) => c.isDefault) ?? cards[0] ?? null;
  const form = useSchemaForm({
    schema: checkoutSchema,
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
  const billingCountry = useCheckoutCountry(taxed);
  const taxPreview = usePreviewCheckoutQuery(taxed && n && billingCountry.hasDetails ? { interval, quantity: n } : skipToken);

  /** After a purchase: the form back to one node, a further subscription's form closed. */
  const done = () => {
    form.reset({ ...form.values, quantity: 1 });
    if (variant === 'another') setExpanded(false);
  };
  const confirmation = useFirstPaymentConfirmation(done);

  const change = () => {
    reset();
    setIdempotencyKey(newKey());
  };

  const onSubmit = form.onSubmit(async (body) => {
    if (!selected) return;
    if (!(await billingCountry.saveCountry())) return;
    const result = await checkout({ body, idempotencyKey });
    if ('error' in result) return;
    const { subscription, clientSecret } = result.data;
    setIdempotencyKey(newKey());
    if (subscription.status === 'incomplete' || clientSecret) {
      confirmation.setPending(clientSecret ? { clientSecret, cardId: selected.id } : null);
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
    done();
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
                <SegmentedChoice<Interval>
                  name={`${periodLabelId}-interval`}
                  labelledBy={periodLabelId}
                  value={interval}
                  onChange={(v) => {
                    form.form.setFieldValue('interval', v);
                    change();
                  }}
                  data={[
                    { value: 'month', label: 'Billed monthly' },
                    {
                      value: 'year',
                      label:
                        saving && saving.percent > 0 ? (
                          // On a phone the badge goes under the words rather than being cut to 'Save …'.
                          <Group gap={6} justify="center" wrap="wrap" style={{ rowGap: 2 }}>
                            <span>Billed yearly</span>
                            <Badge size="xs" variant="light" color="green" radius="sm" style={{ flexShrink: 0 }}>
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
              <CheckoutPriceSummary
                price={price}
                interval={interval}
                n={n}
                saving={saving}
                money={money}
                taxed={taxed}
                preview={taxPreview.data}
              />
              {billingCountry.needsCountry ? (
                <Select
                  label="Billing country"
                  description="Tax depends on it. Add the rest of your billing details any time."
                  required
                  searchable
                  autoComplete="country"
                  data={billingCountry.countries}
                  value={billingCountry.country}
                  error={billingCountry.countryError}
                  onChange={billingCountry.chooseCountry}
                />
              ) : null}
              <CheckoutPaymentMethod
                cards={cards}
                loading={methodsLoading}
                selected={selected}
                onChange={(cardId) => {
                  form.form.setFieldValue('paymentMethodId', cardId);
                  change();
                }}
              />
              {confirmation.pending ? (
                <ConfirmPaymentAlert
                  confirming={confirmation.confirming}
                  error={confirmation.confirmError}
                  onConfirm={() => void confirmation.confirmPayment()}
                />
              ) : null}
              <ErrorDisplay error={error} />
              {/* Until the pending payment is confirmed, a second Subscribe would buy a second subscription. */}
              {confirmation.pending ? null : (
                <Button
                  type="submit"
                  size="md"
                  loading={isLoading || billingCountry.savingDetails}
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
