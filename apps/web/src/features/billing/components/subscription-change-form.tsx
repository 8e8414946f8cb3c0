import { createContext, useContext, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { TEXT } from '@portal/contract';
import { ConfirmPhraseField } from '../../../components/form/confirm-phrase-field';
import { useModalBusy, useOnModalClose } from '../../../components/modal-host';
import { track, type AnalyticsProps } from '../../../lib/analytics';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { reloadPage } from '../reload-page';
import { ErrorDisplay, useSchemaForm, errorMessage } from '@portal/ui';

/** The typed confirmation's schema, loaded with the validation code (docs/decisions/140). */
const confirmationSchema = () => loadSchemas().then((s) => s.ConfirmationSchema);

/** The analytics `type` of each change, sent with 'subscription_changed' and 'subscription_change_cancelled'. */
export type ChangeType = 'quantity' | 'billing_period' | 'cancel' | 'reactivate';

/** Each change's warning, word for word; re-activating warns of nothing. */
const WARNINGS: Record<ChangeType, string | null> = {
  quantity: TEXT.warnQuantity,
  billing_period: TEXT.warnInterval,
  cancel: TEXT.warnCancel,
  reactivate: null,
};

/**
 * The message of the failed submit, if any. A part of the form that shows a server error of its own
 * (the charge preview) leaves out the same message, so one failure is said once, beside Submit.
 */
const SubmitErrorContext = createContext<string | null>(null);
export const useSubmitErrorMessage = () => useContext(SubmitErrorContext);

export interface SubscriptionChangeFormProps {
  type: ChangeType;
  /** The subscription's id (the API's stripeId), recorded with the analytics events. */
  subscriptionId: string;
  /** Fields and facts above the confirmation (new quantity, the charge preview). */
  children?: ReactNode;
  /** Checks the change's own fields and shows their messages; false stops the submit. */
  validate?: () => boolean;
  /** Makes the change; RTK Query's result. */
  submit: () => Promise<{ error?: unknown }>;
  /** The old and new values recorded with 'subscription_changed'. */
  details?: () => AnalyticsProps;
  submitColor?: string;
  close: () => void;
}

/**
 * What the four subscription modals share: the warning, the 'I confirm' field, Cancel and Submit.
 * Closing the modal without making the change (Cancel, ×, Escape, a click outside) records
 * 'subscription_change_cancelled' once; a success records 'subscription_changed' and reloads the
 * page; a failure shows the error display inside the modal.
 */
export function SubscriptionChangeForm({
  type,
  subscriptionId,
  children,
  validate,
  submit,
  details,
  submitColor,
  close,
}: SubscriptionChangeFormProps) {
  const warning = WARNINGS[type];
  const form = useSchemaForm({ schema: confirmationSchema, initialValues: { confirm: '' } });
  // Not the form's own flag: it stays set after a success, until the reload replaces the page.
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // A ref, not state: the close handler may run in the same tick as the submit began.
  const changeSent = useRef(false);

  const sendChange = async () => {
    setError(null);
    setSubmitting(true);
    changeSent.current = true;
    const result = await submit();
    if (result.error !== undefined) {
      changeSent.current = false;
      setError(result.error);
      setSubmitting(false);
      return;
    }
    track('subscription_changed', { type, stripe_subscription_id: subscriptionId, ...(details ? details() : {}) });
    // Stays 'Submitting, please wait...' until the reload replaces the page.
    reloadPage();
  };

  const onSubmit: ReturnType<typeof form.onSubmit> = (event) => {
    event?.preventDefault();
    if (submitting) return;
    // The change's own fields show their messages too, whatever the confirmation says.
    const fieldsOk = validate ? validate() : true;
    form.onSubmit(async () => {
      if (fieldsOk) await sendChange();
    })(event);
  };

  // While the change is on its way the modal stays open (×, Escape and a click outside do nothing),
  // so an error is seen.
  useModalBusy(submitting);
  // The host runs this however the modal closes, Cancel included. Closed once the change is made
  // (the reload is pending), the change was not cancelled.
  useOnModalClose(() => {
    if (!changeSent.current) track('subscription_change_cancelled', { type, stripe_subscription_id: subscriptionId });
  });

  const submitErrorMessage = error === null || error === undefined ? null : errorMessage(error);

  return (
    <SubmitErrorContext.Provider value={submitErrorMessage}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {warning ? (
            <Alert role="note" color="yellow" variant="light" icon={<IconAlertTriangle size={18} stroke={1.8} />} py="sm">
              {warning}
            </Alert>
          ) : null}
          {children}
          <ConfirmPhraseField {...form.field('confirm')} disabled={submitting} />
          <ErrorDisplay error={error} />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={submitting}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={submitColor}
              disabled={submitting}
              leftSection={submitting ? <Loader size={14} color="currentColor" aria-hidden /> : null}
            >
              {submitting ? TEXT.submitting : 'Submit'}
            </Button>
          </Group>
        </Stack>
      </form>
    </SubmitErrorContext.Provider>
  );
}
