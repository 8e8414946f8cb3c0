import { useRef } from 'react';
import { ActionIcon, NumberInput, type NumberInputHandlers, type NumberInputProps } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { QUANTITY_MAX, QUANTITY_MIN } from '@portal/contract';

/**
 * A number of nodes: the value centred between a − and a + button of a full touch size, in place
 * of the kit's small stepper arrows. Typing works as in any number field.
 */
export function QuantityInput(props: Omit<NumberInputProps, 'min' | 'max' | 'hideControls' | 'handlersRef'>) {
  const handlers = useRef<NumberInputHandlers>(undefined);
  const n = typeof props.value === 'number' ? props.value : Number(props.value);
  const known = props.value !== '' && Number.isFinite(n);
  return (
    <NumberInput
      min={QUANTITY_MIN}
      max={QUANTITY_MAX}
      clampBehavior="none"
      allowNegative={false}
      inputMode="numeric"
      {...props}
      // A prefilled number is selected on focus, so typing replaces it rather than adding digits.
      onFocus={(event) => {
        event.currentTarget.select();
        props.onFocus?.(event);
      }}
      hideControls
      handlersRef={handlers}
      leftSectionPointerEvents="all"
      rightSectionPointerEvents="all"
      leftSectionWidth={44}
      rightSectionWidth={44}
      // Only the field is narrow; the label and description keep the form's width.
      styles={{
        wrapper: { maxWidth: 220 },
        input: { textAlign: 'center', fontVariantNumeric: 'tabular-nums', fontWeight: 600 },
      }}
      leftSection={
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label="One node fewer"
          disabled={props.disabled || (known && n <= QUANTITY_MIN)}
          onClick={() => handlers.current?.decrement()}
        >
          <IconMinus size={16} stroke={2} />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label="One node more"
          disabled={props.disabled || (known && n >= QUANTITY_MAX)}
          onClick={() => handlers.current?.increment()}
        >
          <IconPlus size={16} stroke={2} />
        </ActionIcon>
      }
    />
  );
}
