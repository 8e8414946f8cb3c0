import type { PgDialect } from 'drizzle-orm/pg-core';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './client';

type Session = ConstructorParameters<typeof NodePgSession>;

const ignoreLostConnection = () => {};

/**
 * Replaces `db.transaction` of a drizzle database on a pg pool with one that always gives the
 * connection back in a known state (ADR 045). Drizzle's own (0.45) sends BEGIN before its
 * try/finally, so a BEGIN that fails or times out (a busy machine: the answer waits behind a 5 s
 * query timeout) never releases the connection: the pool shrinks for good, PostgreSQL keeps an
 * idle transaction open, and closing the pool waits forever. It also releases the connection as
 * healthy when its ROLLBACK failed, so the next transaction may run inside the half-done one and
 * commit it.
 *
 * A connection lost during a transaction must not end the process either: pg emits 'error' on a
 * checked-out client, which has no listener of the pool's until it is released.
 *
 * Here the connection goes back to the pool only when PostgreSQL last said it is idle, outside a
 * transaction, and the transaction ended as it should: committed, or rolled back after the
 * callback's own error. Otherwise it is closed, and PostgreSQL rolls back whatever it held.
 */
export function releasingTransactions(db: Db, pool: pg.Pool): void {
  const { dialect, session } = db as unknown as {
    dialect: PgDialect;
    session: { schema: Session[2]; options: Session[3] };
  };
  const transaction: Db['transaction'] = async (run, config) => {
    const client = await pool.connect();
    // A checked-out connection has no listener of the pool's: lost during the transaction (the
    // database stopped), its 'error' event would end the process. Its queries fail with it anyway.
    client.on('error', ignoreLostConnection);
    let began = false;
    let ended = false;
    let failure: unknown;
    try {
      // On one client (not a pool), drizzle's transaction runs BEGIN, the callback, then COMMIT,
      // or ROLLBACK and the callback's own error; a failed ROLLBACK throws its own error instead.
      const result = await new NodePgSession(client, dialect, session.schema, session.options).transaction(async (tx) => {
        began = true;
        try {
          return await run(tx as Parameters<typeof run>[0]);
        } catch (err) {
          failure = err;
          throw err;
        }
      }, config);
      ended = true;
      return result;
    } catch (err) {
      ended = began && err === failure;
      throw err;
    } finally {
      const idle = ended && client.getTransactionStatus() === 'I';
      client.release(idle ? undefined : new Error('the transaction did not end cleanly: its connection is closed'));
      // The pool listens again from the release on.
      client.off('error', ignoreLostConnection);
    }
  };
  Object.assign(db, { transaction });
}
