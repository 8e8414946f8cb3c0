import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, type ConsoleFixtures } from '../../test/console/fixtures';
import { searchAll } from './search.repository';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  fx = await consoleFixtures(t);
});
afterAll(async () => t.close());

/**
 * searchAll's answer and how many statements it sent: through the pool on PostgreSQL (where they
 * are prepared statements), through drizzle on PGlite.
 */
async function counted(q: string) {
  const client = (t.db as { $client?: unknown }).$client;
  const sent = client instanceof pg.Pool ? vi.spyOn(client, 'query') : vi.spyOn(t.db, 'execute');
  try {
    const answer = await searchAll(t.db, q);
    return { answer, statements: sent.mock.calls.length };
  } finally {
    sent.mockRestore();
  }
}

describe('searchAll (statements)', () => {
  it('answers exact and prefix matches of every kind in one statement, substrings of the others in one more', async () => {
    const { answer, statements } = await counted(fx.a.email);
    expect(answer.items[0]).toMatchObject({ kind: 'customer', userId: fx.userId, match: 'exact' });
    expect(statements).toBe(2);
  });

  it('looks for substrings of every kind that found nothing in the second statement', async () => {
    const { answer, statements } = await counted(fx.a.email.slice(3));
    expect(answer.items).toContainEqual(expect.objectContaining({ kind: 'customer', userId: fx.userId, match: 'substring' }));
    expect(statements).toBe(2);
  });

  it('sends no second statement when the text is too short for substrings', async () => {
    // No key, address, hostname or invoice number starts with '#' (a random key may start with any
    // two letters: 'zq' found one once).
    const { answer, statements } = await counted('#~');
    expect(answer).toEqual({ items: [], more: false });
    expect(statements).toBe(1);
  });
});
