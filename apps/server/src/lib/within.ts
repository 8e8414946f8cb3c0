import type { Tx } from '../db/client';

/**
 * More work that must commit with an operation or not at all: a domain operation runs it inside
 * its own transaction, after its change, with what it changed (the console's staff audit row).
 */
export type Within<R = void> = (tx: Tx, result: R) => Promise<void>;
