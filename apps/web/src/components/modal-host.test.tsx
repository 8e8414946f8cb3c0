import { lazy, type ComponentType } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MODAL_TITLES } from '@portal/contract';
import { showModal } from '../lib/state/menu-slice';
import { subscriptionModalProps } from '../test/fixtures';
import { renderWithStore } from '../test/render';
import { ModalHost, useOnModalClose, type ModalBodyProps } from './modal-host';

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
      store.dispatch(showModal({ id: 'ChangeQuantityModal', props: subscriptionModalProps({ quantity: 3 }) }));
    });
    const dialog = await screen.findByRole('dialog', { name: MODAL_TITLES.ChangeQuantityModal });
    expect(dialog).toHaveTextContent('Current quantity 3');
    // Named close button; the dialog's header is not a second banner landmark.
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(store.getState().menu.modal.open).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('gives focus back to the control that opened it', async () => {
    const { store } = renderWithStore(
      <>
        <button
          onClick={() => store.dispatch(showModal({ id: 'ChangeQuantityModal', props: subscriptionModalProps({ quantity: 3 }) }))}
        >
          Change quantity
        </button>
        <ModalHost bodies={{ ChangeQuantityModal: QuantityBody }} />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Change quantity' });
    await userEvent.click(opener);
    await screen.findByRole('dialog', { name: MODAL_TITLES.ChangeQuantityModal });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('focuses the data-autofocus field of a body that loads after the modal opened', async () => {
    let resolve: (body: { default: ComponentType<ModalBodyProps> }) => void = () => {};
    const Lazy = lazy(() => new Promise<{ default: ComponentType<ModalBodyProps> }>((r) => (resolve = r)));
    const { store } = renderWithStore(<ModalHost bodies={{ ChangeQuantityModal: Lazy }} />);
    act(() => {
      store.dispatch(showModal({ id: 'ChangeQuantityModal', props: subscriptionModalProps() }));
    });
    await screen.findByRole('dialog');
    await act(async () => {
      resolve({ default: () => <input aria-label="New number of nodes" data-autofocus /> });
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'New number of nodes' })).toHaveFocus());
  });

  it.each([
    ['its own close', () => userEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
    ['the × button', () => userEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Escape', () => userEvent.keyboard('{Escape}')],
  ])("runs the body's close handler once when closed by %s", async (_way, closeIt) => {
    const onClose = vi.fn();
    function Body({ close }: ModalBodyProps) {
      useOnModalClose(onClose);
      return <button onClick={close}>Cancel</button>;
    }
    const { store } = renderWithStore(<ModalHost bodies={{ ChangeQuantityModal: Body }} />);
    act(() => {
      store.dispatch(showModal({ id: 'ChangeQuantityModal', props: subscriptionModalProps() }));
    });
    await screen.findByRole('dialog');
    expect(onClose).not.toHaveBeenCalled();
    await closeIt();
    expect(store.getState().menu.modal.open).toBe(false);
    expect(onClose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('renders nothing for an id without a registered body', () => {
    const { store } = renderWithStore(<ModalHost bodies={{}} />);
    act(() => {
      store.dispatch(showModal({ id: 'CancelSubscriptionModal', props: subscriptionModalProps() }));
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
