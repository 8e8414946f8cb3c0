import { TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderInKit } from '../test/render';
import { useSchemaForm, type SchemaSource } from './use-schema-form';

const NameSchema = z.object({ name: z.string().trim().min(2, 'Enter at least 2 characters') });

function NameForm({ schema, onValid }: { schema: SchemaSource<typeof NameSchema>; onValid: (body: unknown) => void }) {
  const form = useSchemaForm({ schema, initialValues: { name: '' } });
  return (
    <form onSubmit={form.onSubmit(onValid)} noValidate>
      <TextInput label="Name" {...form.field('name')} />
      <button type="submit">{form.submitting ? 'Saving' : 'Save'}</button>
    </form>
  );
}

/** A schema that arrives when the test says so, like a chunk still downloading. */
function slowSchema() {
  let arrive: () => void = () => {};
  let fail: () => void = () => {};
  const arrived = new Promise<typeof NameSchema>((resolve, reject) => {
    arrive = () => resolve(NameSchema);
    fail = () => reject(new Error('offline'));
  });
  const load = vi.fn(() => arrived);
  return { load, arrive, fail };
}

describe('useSchemaForm with a schema loaded on demand (ADR 140)', () => {
  it("asks for the schema at the customer's first press, and a submit before it arrives waits for it, then judges the form", async () => {
    const { load, arrive } = slowSchema();
    const onValid = vi.fn();
    renderInKit(<NameForm schema={load} onValid={onValid} />);
    // Not on the page's first paint: only once someone presses a key or a pointer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(load).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Name'), ' a ');
    expect(load).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByText('Enter at least 2 characters')).toBeNull();
    arrive();
    await screen.findByText('Enter at least 2 characters');
    expect(onValid).not.toHaveBeenCalled();

    // Once here, the form judges each change at once, and sends the schema's output.
    await userEvent.type(screen.getByLabelText('Name'), 'da');
    await waitFor(() => expect(screen.queryByText('Enter at least 2 characters')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'a da' }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows a submit waiting for the schema as submitting, and sends once however often it is pressed', async () => {
    const { load, arrive } = slowSchema();
    const onValid = vi.fn();
    renderInKit(<NameForm schema={load} onValid={onValid} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(screen.getByRole('button', { name: 'Saving' }));
    await userEvent.click(screen.getByRole('button', { name: 'Saving' }));
    arrive();
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ada' }));
    await screen.findByRole('button', { name: 'Save' });
    expect(onValid).toHaveBeenCalledTimes(1);
  });

  it('leaves the form to the server when the schema cannot load (offline)', async () => {
    const { load, fail } = slowSchema();
    const onValid = vi.fn();
    renderInKit(<NameForm schema={load} onValid={onValid} />);
    await userEvent.type(screen.getByLabelText('Name'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    fail();
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'x' }));
  });

  it('judges at once with a schema given as it is', async () => {
    const onValid = vi.fn();
    renderInKit(<NameForm schema={NameSchema} onValid={onValid} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Enter at least 2 characters');
    expect(onValid).not.toHaveBeenCalled();
  });
});
