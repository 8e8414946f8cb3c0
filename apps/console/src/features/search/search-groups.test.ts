import { describe, expect, it } from 'vitest';
import { resultLines } from './search-groups';

describe('resultLines', () => {
  it('reads a customer as their name, then their e-mail and company, each once', () => {
    expect(
      resultLines({
        kind: 'customer',
        label: 'Ada Lovelace <ada@acme.example>, Acme',
        customer: 'Ada Lovelace <ada@acme.example>',
      }),
    ).toEqual({ title: 'Ada Lovelace', subtitle: 'ada@acme.example · Acme' });
  });

  it('reads a customer without a name as their e-mail, with the company alone under it', () => {
    expect(resultLines({ kind: 'customer', label: 'ada@acme.example', customer: 'ada@acme.example' })).toEqual({
      title: 'ada@acme.example',
      subtitle: null,
    });
    expect(resultLines({ kind: 'customer', label: 'ada@acme.example, Acme', customer: 'ada@acme.example' })).toEqual({
      title: 'ada@acme.example',
      subtitle: 'Acme',
    });
  });

  it('reads any other result as what matched, then whose it is', () => {
    expect(resultLines({ kind: 'node', label: 'pve-01 (fp-1)', customer: 'Ada Lovelace <ada@acme.example>' })).toEqual({
      title: 'pve-01 (fp-1)',
      subtitle: 'Ada Lovelace <ada@acme.example>',
    });
  });
});
