import { TextInput, type TextInputProps } from '@mantine/core';
import { CONFIRM_PHRASE } from '@portal/contract';

/**
 * The typed confirmation of a change that cannot be taken back (the subscription modals, account
 * deletion): the same label, hint and behaviour everywhere. Its rule is the contract's
 * ConfirmationSchema, checked by the form around it.
 */
export function ConfirmPhraseField(props: Omit<TextInputProps, 'label' | 'description' | 'placeholder'>) {
  return (
    <TextInput
      label="Confirmation"
      description={`Type "${CONFIRM_PHRASE}" to proceed.`}
      placeholder={CONFIRM_PHRASE}
      autoComplete="off"
      spellCheck={false}
      required
      {...props}
    />
  );
}
