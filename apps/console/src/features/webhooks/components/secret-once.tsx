import { SecretShownOnce } from '@portal/ui';

/** A signing secret, shown this once: copy it now, the console never shows it again. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <SecretShownOnce
      secret={secret}
      label="Signing secret"
      warningTitle="Copy the signing secret now"
      warning="It is shown only this once. Your receiver verifies every request with it, with any Standard Webhooks library."
      onDone={onDone}
    >
      Lost it? Rotate the secret: a new one is shown, and the old one keeps signing for the overlap you choose.
    </SecretShownOnce>
  );
}
