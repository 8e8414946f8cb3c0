import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, type FormErrors, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { errorBody } from '../api-error';
import { issuesByField } from '../field-errors';

/**
 * A schema, or a function that loads it: its module (and the validation library) is then not part
 * of the page's first load, and arrives once the customer starts using the page (docs/decisions/140).
 */
export type SchemaSource<Schema> = Schema | (() => Promise<Schema>);

const loaded = new WeakMap<() => Promise<unknown>, unknown>();
const loading = new WeakMap<() => Promise<unknown>, Promise<unknown>>();

/** The schema of `source` if it is here (a loader's once it has answered), else undefined. */
function schemaNow<Schema>(source: SchemaSource<Schema>): Schema | undefined {
  return typeof source === 'function' ? (loaded.get(source as () => Promise<unknown>) as Schema | undefined) : source;
}

/** The schema of `source`, loaded once per loader (a failed load is tried again next time). */
function loadSchema<Schema>(source: SchemaSource<Schema>): Promise<Schema> {
  if (typeof source !== 'function') return Promise.resolve(source);
  const loader = source as () => Promise<Schema>;
  let load = loading.get(loader) as Promise<Schema> | undefined;
  if (!load) {
    load = loader().then((schema) => {
      loaded.set(loader, schema);
      return schema;
    });
    load.catch(() => loading.delete(loader));
    loading.set(loader, load);
  }
  return load;
}

export interface SchemaFormOptions<Values extends Record<string, unknown>, Schema extends z.ZodType> {
  /**
   * The contract's schema of what the form sends, or a function that loads it; its messages are
   * the fields' messages.
   */
  schema: SchemaSource<Schema>;
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
  // A submit waiting for its schema to load: the form shows as submitting, and a second press does nothing.
  const [waiting, setWaiting] = useState(false);
  const waitingRef = useRef(false);
  const attemptedRef = useRef(false);
  const latest = useRef({ schema, toInput, check });
  latest.current = { schema, toInput, check };

  // Stable, so the kit does not rebuild its handlers on every render; it reads the latest options.
  const rules = useMemo(() => {
    // The schema judges its input (toInput of the form's values, which need not be the same). A
    // schema still loading judges nothing yet: the submit waits for it (below).
    const schemaRules = (input: unknown): FormErrors => {
      const parsed = schemaNow(latest.current.schema)?.safeParse(input);
      const errors: FormErrors = {};
      // The first message of each field (its path joined with dots, as the kit names nested fields).
      for (const issue of parsed?.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
      return errors;
    };
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

  // A schema loaded on demand is asked for at the customer's first key press or pointer press on
  // the page, well before a submit can need it, and never on the page's first paint's path (a
  // visitor who only reads the page never downloads it). A submit before it is here waits for it.
  useEffect(() => {
    if (schemaNow(schema)) return undefined;
    const events = ['pointerdown', 'keydown'] as const;
    const load = () => {
      stop();
      loadSchema(schema).catch(() => undefined);
    };
    const stop = () => events.forEach((e) => document.removeEventListener(e, load, true));
    events.forEach((e) => document.addEventListener(e, load, true));
    return stop;
  }, [schema]);

  /** Runs `then` with the schema here (at once when it is already), or without it when it cannot load. */
  const withSchema = (then: () => void) => {
    if (schemaNow(latest.current.schema)) return then();
    loadSchema(latest.current.schema).then(then, then);
  };

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
      // The browser's own submit is stopped now, whether or not the schema still loads.
      event?.preventDefault();
      if (waitingRef.current) return;
      const wait = (value: boolean) => {
        waitingRef.current = value;
        setWaiting(value);
      };
      if (!schemaNow(latest.current.schema)) wait(true);
      withSchema(() => {
        if (waitingRef.current) wait(false);
        form.onSubmit(async (values) => {
          const input = latest.current.toInput(values);
          const schema = schemaNow(latest.current.schema);
          // Without its schema (it could not load: offline), the server judges the form and its
          // 400 shows beside the fields, as for any rule the schema cannot know.
          if (!schema) return onValid(input as z.output<Schema>);
          const parsed = schema.safeParse(input);
          if (parsed.success) await onValid(parsed.data);
        })();
      });
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
    submitting: form.submitting || waiting,
    attempted,
    reveal: () => {
      markAttempted(true);
      withSchema(() => form.setErrors(rules(form.getValues())));
    },
  };
}
