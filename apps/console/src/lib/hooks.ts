import { useDispatch, useSelector, type TypedUseSelectorHook } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { SessionState } from './session-slice';

/** What shared code and features may read of the store (the app assembles it in app/store.ts). */
export interface ConsoleState {
  session: SessionState;
}

export type ConsoleDispatch = ThunkDispatch<ConsoleState, unknown, UnknownAction>;
export const useConsoleDispatch: () => ConsoleDispatch = useDispatch;
export const useConsoleSelector: TypedUseSelectorHook<ConsoleState> = useSelector;
