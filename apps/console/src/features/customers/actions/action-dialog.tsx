import { Button, Divider, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  EXTEND_DAYS_MAX,
  QUANTITY_MAX,
  QUANTITY_MIN,
  REASON_MAX_LENGTH,
  SUSPENSION_MESSAGE_MAX_LENGTH,
  formatMoney,
} from '@portal/contract';
import { customersApi, type ActionRoute } from '../api';
import { ACTION_COPY } from './action-copy';
import { actionBody, bodySchema, type ActionValues } from './action-body';
import { ErrorDisplay, useSchemaForm } from '@portal/ui';

/** An action waiting for its reason: which one, on what. */
export interface PendingAction {
  route: ActionRoute;
  params: Record<string, string>;
  /** What it acts on, as the dialog names it (a license key, a hostname, the customer's address). */
  subject: string;
  /** A refund's or credit's invoice: what was paid, the most that can go back. */
  paid?: { amount: number; currency: string };
  /** The address typed to confirm a deletion. */
  email?: string;
}

export interface ActionDialogProps {
  action: PendingAction | null;
  onClose: () => void;
  /** After the action worked (the customer page goes to the list after a deletion). */
  onDone?: (action: PendingAction) => void;
}

/** The dialog of every staff action: what will happen, its own fields, and the reason it needs. */
/** '$' for usd, '€' for eur: the sign beside an amount typed in the currency's major unit. */
export function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).formatToParts(0);
  return parts.find((p) => p.type === 'currency')?.value ?? currency.toUpperCase();
}

export function ActionDialog({ action, onClose, onDone }: ActionDialogProps) {
  return (
    <Modal opened={action !== null} onClose={onClose} title={action ? ACTION_COPY[action.route].title : ''} size="md">
      {/* Keyed: a new action starts with an empty form and its own request state. */}
      {action ? (
        <ActionForm key={`${action.route}:${JSON.stringify(action.params)}`} action={action} onClose={onClose} onDone={onDone} />
      ) : null}
    </Modal>
  );
}

function ActionForm({
  action,
  onClose,
  onDone,
}: {
  action: PendingAction;
  onClose: () => void;
  onDone?: ActionDialogProps['onDone'];
}) {
  const copy = ACTION_COPY[action.route];
  const [run, { isLoading, error }] = customersApi.endpoints[action.route].useMutation();
  const form = useSchemaForm({
    schema: bodySchema(action.route),
    initialValues: {
      reason: '',
      days: 30,
      maxNodes: 1,
      amount: action.paid ? action.paid.amount / 100 : '',
      confirmEmail: '',
      customerMessage: '',
    } satisfies ActionValues as ActionValues,
    toInput: (values) => actionBody(action.route, values),
    check: (values) =>
      copy.fields.includes('confirmEmail') && values.confirmEmail.trim().toLowerCase() !== action.email?.toLowerCase()
        ? { confirmEmail: 'Type the customer’s e-mail address exactly' }
        : {},
  });

  const submit = form.onSubmit(async (body) => {
    const result = await run({ params: action.params, body: body as Record<string, unknown> });
    if ('error' in result) {
      form.showServerIssues(result.error);
      return;
    }
    notifications.show({ color: 'green', title: copy.done, message: result.data.message });
    onDone?.(action);
    onClose();
  });

  const numberField = (name: 'days' | 'maxNodes' | 'amount') => {
    const f = form.field(name);
    return { value: f.value, onChange: f.onChange, error: f.error };
  };
  const reason = form.field('reason');
  const customerMessage = form.field('customerMessage');
  const withMessage = copy.fields.includes('customerMessage');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{copy.describe(action.subject)}</Text>
        {copy.fields.includes('maxNodes') ? (
          <NumberInput
            label="Nodes"
            description="How many machines the license admits"
            min={QUANTITY_MIN}
            max={QUANTITY_MAX}
            allowDecimal={false}
            required
            {...numberField('maxNodes')}
          />
        ) : null}
        {copy.fields.includes('days') ? (
          <NumberInput
            label="Days"
            description={`1 to ${EXTEND_DAYS_MAX}`}
            min={1}
            max={EXTEND_DAYS_MAX}
            allowDecimal={false}
            required
            {...numberField('days')}
          />
        ) : null}
        {copy.fields.includes('amount') && action.paid ? (
          <NumberInput
            label={`${action.route === 'creditInvoice' ? 'Amount to credit' : 'Amount to refund'} (${action.paid.currency.toUpperCase()})`}
            leftSection={currencySymbol(action.paid.currency)}
            description={`Up to ${formatMoney(action.paid.amount, action.paid.currency)}, the amount paid, less what was refunded or credited`}
            min={0.01}
            max={action.paid.amount / 100}
            decimalScale={2}
            fixedDecimalScale
            required
            {...numberField('amount')}
          />
        ) : null}
        <Textarea
          label="Reason"
          description={
            withMessage
              ? 'Internal: kept in the staff audit log with your address and the time; the customer does not see it.'
              : 'Kept in the staff audit log with your address and the time.'
          }
          placeholder={`e.g. ${copy.example}`}
          autosize
          minRows={3}
          maxLength={REASON_MAX_LENGTH}
          required
          data-autofocus
          value={reason.value}
          error={reason.error}
          onChange={(e) => reason.onChange(e.currentTarget.value)}
        />
        {withMessage ? (
          <>
            <Divider label="Shown to the customer" labelPosition="left" />
            <Textarea
              label="Message to the customer"
              description={`Optional. The customer sees it in the portal with the suspended license, beside whom to contact; it is removed when the license is resumed. Up to ${SUSPENSION_MESSAGE_MAX_LENGTH} characters, one paragraph.`}
              placeholder="e.g. Your bank reversed the last payment. Write to billing@example.com to settle it."
              autosize
              minRows={2}
              maxLength={SUSPENSION_MESSAGE_MAX_LENGTH}
              value={customerMessage.value}
              error={customerMessage.error}
              onChange={(e) => customerMessage.onChange(e.currentTarget.value)}
            />
          </>
        ) : null}
        {copy.fields.includes('confirmEmail') ? (
          <TextInput
            label="Confirmation"
            description={`Type ${action.email ?? 'the customer’s e-mail address'} to confirm.`}
            autoComplete="off"
            spellCheck={false}
            required
            {...form.field('confirmEmail')}
            onChange={(e) => form.field('confirmEmail').onChange(e.currentTarget.value)}
          />
        ) : null}
        <ErrorDisplay error={error} />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" color={copy.danger ? 'red' : undefined} loading={isLoading}>
            {copy.confirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
