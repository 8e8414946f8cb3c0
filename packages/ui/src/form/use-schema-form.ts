import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, type FormErrors, type UseFormReturnType } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { z } from 'zod';
import { errorBody } from '../api-error';
import { issuesByField } from '../field-errors';

export interface SchemaFormOptions<Values extends Record<string, unknown>, Schema extends z.ZodType> {
  /** The contract's schema of what the form sends; its messages are the fields' messages. */
  schema: Schema;
  initialValues: Values;
  /** The schema's input made from the form's values (an optional field left blank is left out, say). */
  toInput?: (values: Values) => unknown;
  /** Rules the schema cannot know (a value that must differ from the current one), by field; they come first. */
  check?: (values: Values) => FormErrors;
}

export interface SchemaForm<Values extends Record<string, unknown>, Body> {
  /** The kit's form, for what this hook does not wrap. */
  form: UseFormReturnType<Values>;
  values: Values;
  /** value, onChange and error of a field, to spread on the kit's input. */
  field: <K extends keyof Values & string>(name: K) => { value: Values[K]; onChange: (value: unknown) => void; error: ReactNode };
  /**
   * The form's submit handler: checks every field and shows what is wrong; when all is well, calls
   * `onValid` with the schema's output (trimmed and typed). While it runs, `submitting` is true.
   */
  onSubmit: (onValid: (body: Body) => unknown) => (event?: FormEvent<HTMLFormElement>) => void;
  /** Shows the validation issues of the server's answer beside their fields. */
  showServerIssues: (error: unknown) => void;
  /** Back to `values` (or the first values), with no message shown. */
  reset: (values?: Values) => void;
  submitting: boolean;
  /** Submit was pressed (or reveal called): from then on each change checks the form again. */
  attempted: boolean;
  /** Shows the form's messages now, as a submit would, without submitting (a field left with a mistake). */
  reveal: () => void;
}

/**
 * The one form behaviour of the app, on the kit's form and the contract's schemas: nothing is
 * judged before the first submit (a half-typed name is no mistake yet); after it, every change
 * shows the form's messages as they now stand; a server's 400 shows its issues beside the fields.
 */
export function useSchemaForm<Values extends Record<string, unknown>, Schema extends z.ZodType>({
  schema,
  initialValues,
  toInput = (values) => values,
  check,
}: SchemaFormOptions<Values, Schema>): SchemaForm<Values, z.output<Schema>> {
  const [attempted, setAttempted] = useState(false);
  const attemptedRef = useRef(false);
  const latest = useRef({ schema, toInput, check });
  latest.current = { schema, toInput, check };

  // Stable, so the kit does not rebuild its handlers on every render; it reads the latest options.
  const rules = useMemo(() => {
    // The resolver's values are the schema's input, which need not be the form's values.
    const schemaRules = (input: unknown) =>
      zod4Resolver(latest.current.schema, { errorPriority: 'first' })(input as Record<string, unknown>);
    return (values: Values): FormErrors => {
      const errors = schemaRules(latest.current.toInput(values));
      // The form's own rules are the more specific ones ('Enter the number of nodes' for an empty field).
      const extra = latest.current.check?.(values) ?? {};
      for (const [key, message] of Object.entries(extra)) if (message) errors[key] = message;
      return errors;
    };
  }, []);

  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: rules,
    // Errors follow the values once Submit was pressed, all of them at once (see onValuesChange).
    clearInputErrorOnChange: false,
    onValuesChange: (values) => {
      if (attemptedRef.current) form.setErrors(rules(values));
    },
  });

  const markAttempted = (value: boolean) => {
    attemptedRef.current = value;
    setAttempted(value);
  };

  return {
    form,
    values: form.values,
    field: (name) => {
      const props = form.getInputProps(name, { withFocus: false });
      return { value: form.values[name], onChange: props.onChange as (value: unknown) => void, error: form.errors[name] };
    },
    onSubmit: (onValid) => (event) => {
      markAttempted(true);
      form.onSubmit(async (values) => {
        const parsed = latest.current.schema.safeParse(latest.current.toInput(values));
        if (parsed.success) await onValid(parsed.data);
      })(event);
    },
    showServerIssues: (error) => {
      const issues = errorBody(error)?.issues;
      if (issues) form.setErrors(issuesByField(issues, Object.keys(form.getValues())));
    },
    reset: (values) => {
      markAttempted(false);
      if (values) {
        form.setInitialValues(values);
        form.setValues(values);
      } else form.reset();
      form.clearErrors();
    },
    submitting: form.submitting,
    attempted,
    reveal: () => {
      markAttempted(true);
      form.setErrors(rules(form.getValues()));
    },
  };
}
