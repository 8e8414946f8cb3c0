import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ModalId } from '@portal/contract';

/** Props handed to a modal body; plain data only, so the store stays serialisable. */
export type ModalProps = Record<string, string | number | boolean | null>;

export interface ModalState {
  open: boolean;
  id: ModalId | null;
  props: ModalProps;
}

export interface MenuState {
  mobileOpen: boolean;
  /** Title of the page on screen; the side menu highlights the entry with this title. */
  activePage: string;
  modal: ModalState;
}

const initialState: MenuState = {
  mobileOpen: false,
  activePage: '',
  modal: { open: false, id: null, props: {} },
};

export const menuSlice = createSlice({
  name: 'menu',
  initialState,
  reducers: {
    toggleMobile(state) {
      state.mobileOpen = !state.mobileOpen;
    },
    setMobileOpen(state, action: PayloadAction<boolean>) {
      state.mobileOpen = action.payload;
    },
    setActivePage(state, action: PayloadAction<string>) {
      state.activePage = action.payload;
    },
    showModal(state, action: PayloadAction<{ id: ModalId; props?: ModalProps }>) {
      state.modal = { open: true, id: action.payload.id, props: action.payload.props ?? {} };
    },
    hideModal(state) {
      // Keep id and props so the closing transition still has its content.
      state.modal.open = false;
    },
  },
});

export const { toggleMobile, setMobileOpen, setActivePage, showModal, hideModal } = menuSlice.actions;
