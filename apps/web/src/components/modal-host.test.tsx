import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MODAL_TITLES } from '@portal/contract';
import { showModal } from '../lib/state/menu-slice';
import { renderWithStore } from '../test/render';
import { ModalHost, type ModalBodyProps } from './modal-host';

function QuantityBody({ props, close }: ModalBodyProps) {
  return (
    <div>
      <p>Current quantity {String(props.quantity)}</p>
      <button onClick={close}>Cancel</button>
    </div>
  );
}

describe('ModalHost', () => {
  it('shows the open modal centred with its title and props, and closes it', async () => {
    const { store } = renderWithStore(<ModalHost bodies={{ ChangeQuantityModal: QuantityBody }} />);
    act(() => {
      store.dispatch(showModal({ id: 'ChangeQuantityModal', props: { quantity: 3 } }));
    });
    const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.ChangeQuantityModal });
    expect(dialog).toHaveTextContent('Current quantity 3');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(store.getState().menu.modal.open).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('renders nothing for an id without a registered body', () => {
    const { store } = renderWithStore(<ModalHost bodies={{}} />);
    act(() => {
      store.dispatch(showModal({ id: 'CancelSubscriptionModal' }));
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
