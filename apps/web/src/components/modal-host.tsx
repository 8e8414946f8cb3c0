import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Center, Loader, Modal } from '@mantine/core';
import { MODAL_BACKDROP_TRANSITION_MS, MODAL_TITLES, MODAL_TRANSITION_MS, type ModalId } from '@portal/contract';
import { useAppDispatch, useAppSelector } from '../lib/state/hooks';
import { hideModal, type ModalProps } from '../lib/state/menu-slice';

/** What every modal body receives. */
export interface ModalBodyProps {
  /** The props given to showModal({ id, props }). */
  props: ModalProps;
  /** Closes the modal. */
  close: () => void;
}

export type ModalBody = ComponentType<ModalBodyProps> | LazyExoticComponent<ComponentType<ModalBodyProps>>;

/** Which body renders for which modal id; the app composes it (app/modal-bodies.ts). */
export type ModalBodies = Partial<Record<ModalId, ModalBody>>;

/**
 * Shows the one open modal of `menu.modal`, centred, closable and titled from MODAL_TITLES.
 * An id without a registered body renders nothing.
 */
export function ModalHost({ bodies }: { bodies: ModalBodies }) {
  const dispatch = useAppDispatch();
  const { open, id, props } = useAppSelector((s) => s.menu.modal);
  const Body = id ? bodies[id] : undefined;
  if (!id || !Body) return null;
  const close = () => dispatch(hideModal());
  return (
    <Modal
      opened={open}
      onClose={close}
      title={MODAL_TITLES[id]}
      centered
      radius="lg"
      padding="lg"
      transitionProps={{ duration: MODAL_TRANSITION_MS }}
      overlayProps={{ backgroundOpacity: 0.45, blur: 2, transitionProps: { duration: MODAL_BACKDROP_TRANSITION_MS } }}
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Suspense
        fallback={
          <Center py="xl">
            <Loader size="sm" aria-label="Loading" />
          </Center>
        }
      >
        <Body props={props} close={close} />
      </Suspense>
    </Modal>
  );
}
