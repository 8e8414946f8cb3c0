import {
  createContext,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { Center, Loader, Modal } from '@mantine/core';
import { MODAL_TITLES, type ModalId } from '@portal/contract';
import { useAppDispatch, useAppSelector, useAppStore } from '../lib/state/hooks';
import { hideModal, type ModalPropsById } from '../lib/state/menu-slice';

/** What the body of modal `Id` receives. */
export interface ModalBodyProps<Id extends ModalId = ModalId> {
  /** The props given to showModal({ id, props }), typed by the id. */
  props: ModalPropsById[Id];
  /**
   * Closes the modal, the same way as its × button, Escape or a click outside: the handler given
   * to useOnModalClose runs first.
   */
  close: () => void;
}

export type ModalBody<Id extends ModalId = ModalId> =
  ComponentType<ModalBodyProps<Id>> | LazyExoticComponent<ComponentType<ModalBodyProps<Id>>>;

/** Which body renders for which modal id; the app composes it (app/modal-bodies.ts). */
export type ModalBodies = { [Id in ModalId]?: ModalBody<Id> };

type RegisterCloseHandler = (handler: () => void) => () => void;

const ModalCloseContext = createContext<RegisterCloseHandler | null>(null);

/**
 * Runs `handler` once each time the modal around this body is closed, whichever way: the body's
 * `close`, the × button, Escape or a click outside. The body's own state says what the closing
 * means (a change left unmade, say). Outside a modal it does nothing.
 */
export function useOnModalClose(handler: () => void): void {
  const register = useContext(ModalCloseContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => register?.(() => latest.current()), [register]);
}

const ModalBusyContext = createContext<((busy: boolean) => void) | null>(null);

/**
 * While `busy` (a change being submitted), the modal cannot be closed by ×, Escape or a click
 * outside: the customer stays to see how it ended, an error included.
 */
export function useModalBusy(busy: boolean): void {
  const setBusy = useContext(ModalBusyContext);
  useEffect(() => {
    setBusy?.(busy);
    return () => setBusy?.(false);
  }, [setBusy, busy]);
}

/**
 * Focuses the body's `data-autofocus` field once the body is on screen. The kit does so when the
 * modal opens, but a body still loading then has no such field yet, and focus would stay on the
 * close button.
 */
function AutoFocusOnLoad({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = ref.current;
    const target = box?.querySelector<HTMLElement>('[data-autofocus]');
    if (box && target && !box.contains(document.activeElement)) target.focus();
  }, []);
  return <div ref={ref}>{children}</div>;
}

/**
 * Shows the one open modal of `menu.modal`, centred, closable and titled from MODAL_TITLES.
 * An id without a registered body renders nothing.
 */
export function ModalHost({ bodies }: { bodies: ModalBodies }) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const modal = useAppSelector((s) => s.menu.modal);
  const { open, id } = modal;
  // The store pairs each id with its props (ModalRequest); a body is typed by the same id.
  const shown = modal.id === null ? null : { Body: bodies[modal.id] as ModalBody | undefined, props: modal.props };
  const Body = shown?.Body;
  const onClose = useRef<(() => void) | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const markBusy = useCallback((value: boolean) => {
    busyRef.current = value;
    setBusy(value);
  }, []);
  const register = useCallback<RegisterCloseHandler>((handler) => {
    onClose.current = handler;
    return () => {
      if (onClose.current === handler) onClose.current = null;
    };
  }, []);
  // The store, not this render's `open`: Cancel and then × (or two quick Escapes) during the
  // closing transition both reach here before a re-render, and only the first one closes.
  const close = useCallback(() => {
    if (!store.getState().menu.modal.open || busyRef.current) return;
    onClose.current?.();
    dispatch(hideModal());
  }, [store, dispatch]);
  // Mounted closed from the start, not only once a modal is asked for: the kit notes the element
  // that had focus when `opened` turns true and gives focus back to it on close, which a modal
  // mounted already open would skip (the button that opened it would lose focus to the page).
  return (
    <Modal
      opened={open && Body !== undefined}
      onClose={close}
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': 'Close', disabled: busy }}
      title={id ? MODAL_TITLES[id] : undefined}
    >
      {Body && shown ? (
        <Suspense
          fallback={
            <Center py="xl">
              <Loader size="sm" aria-label="Loading" />
            </Center>
          }
        >
          <ModalCloseContext value={register}>
            <ModalBusyContext value={markBusy}>
              <AutoFocusOnLoad key={id}>
                <Body props={shown.props} close={close} />
              </AutoFocusOnLoad>
            </ModalBusyContext>
          </ModalCloseContext>
        </Suspense>
      ) : null}
    </Modal>
  );
}
