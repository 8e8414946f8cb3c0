import { useState } from 'react';
import { Modal, Text, TextInput } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render';
import { ReasonDialog, ReasonForm } from './reason-dialog';

function Harness({ onConfirm }: { onConfirm: (reason: string) => Promise<unknown> }) {
  const [opened, setOpened] = useState(true);
  return (
    <ReasonDialog
      opened={opened}
      title="Revoke API token"
      confirm="Revoke"
      color="red"
      onConfirm={onConfirm}
      onClose={() => setOpened(false)}
    >
      <Text size="sm">Scripts using it get 401.</Text>
    </ReasonDialog>
  );
}

const render = (onConfirm: (reason: string) => Promise<unknown>) =>
  renderRoutes([{ path: '/', element: <Harness onConfirm={onConfirm} /> }]);

describe('ReasonDialog', () => {
  it('asks for a reason before it confirms, then closes', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => undefined);
    render(onConfirm);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    expect(within(dialog).getByText('Scripts using it get 401.')).toBeInTheDocument();
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    expect(reason).toBeRequired();
    expect(reason).toHaveAccessibleDescription(/Kept in the staff audit log/);
    await waitFor(() => expect(reason).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Say why you are doing this')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();

    await user.type(reason, '  Script retired ');
    expect(within(dialog).queryByText('Say why you are doing this')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onConfirm).toHaveBeenCalledWith('Script retired');
  });

  it('stays open with the error when the change failed', async () => {
    const user = userEvent.setup();
    render(async () => ({ status: 409, data: { message: 'Already revoked', code: 'CONFLICT' } }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Gone');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Already revoked');
    expect(screen.getByRole('dialog', { name: 'Revoke API token' })).toBeInTheDocument();
  });
});

describe('ReasonForm', () => {
  it('leaves the first focus to a field of the change above the reason', async () => {
    renderRoutes([
      {
        path: '/',
        element: (
          <Modal opened onClose={() => {}} title="Add webhook endpoint">
            <ReasonForm confirm="Add endpoint" onConfirm={async () => undefined} onClose={() => {}}>
              <TextInput label="URL" data-autofocus />
            </ReasonForm>
          </Modal>
        ),
      },
    ]);
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'URL' })).toHaveFocus());
  });
});
