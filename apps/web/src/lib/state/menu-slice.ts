import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Interval, ModalId } from '@portal/contract';

/**
 * What the four subscription modals are shown with: the subscription as plain data (the store
 * stays serialisable). `stripeId` is the API's field of that name, carried as the API sends it.
 */
export interface SubscriptionModalProps {
  stripeId: string;
  plan: string;
  quantity: number;
  interval: Interval;
  currentPeriodEnd: string;
  unitAmount: number;
  currency: string;
}

/** The props of each modal id: showing a modal with another id's props does not compile. */
export interface ModalPropsById {
  ChangeQuantityModal: SubscriptionModalProps;
  UpdateBillingPeriodModal: SubscriptionModalProps;
  CancelSubscriptionModal: SubscriptionModalProps;
  ReactivateSubscriptionModal: SubscriptionModalProps;
}

/** A modal to show: its id and exactly that id's props. */
export type ModalRequest = { [Id in ModalId]: { id: Id; props: ModalPropsById[Id] } }[ModalId];

export type ModalState = { open: boolean } & (ModalRequest | { id: null; props: Record<string, never> });

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
    showModal(state, action: PayloadAction<ModalRequest>) {
      state.modal = { open: true, ...action.payload };
    },
    hideModal(state) {
      // Keep id and props so the closing transition still has its content.
      state.modal.open = false;
    },
  },
});

export const { toggleMobile, setMobileOpen, setActivePage, showModal, hideModal } = menuSlice.actions;
