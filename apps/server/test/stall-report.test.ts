import { describe, expect, it, vi } from 'vitest';
import { reportingStall } from './stall-report';

describe('reportingStall', () => {
  it('says what is pending once the work outlasts its mark, and still answers what the work answers', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      let finish!: (v: string) => void;
      const work = new Promise<string>((resolve) => (finish = resolve));
      const reported = new Promise<void>((resolve) => {
        spy.mockImplementation((chunk) => {
          written.push(String(chunk));
          resolve();
          return true;
        });
      });
      const answer = reportingStall(
        'closing the thing',
        () => work,
        () => 'session 42: idle in transaction',
        5,
      );
      await reported;
      finish('closed');
      await expect(answer).resolves.toBe('closed');
      expect(written.join('')).toMatch(
        /\[stall\] closing the thing: still pending after \d+ ms\nsession 42: idle in transaction\nactive resources: /,
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('says nothing of work that ends in time, and passes its failure on', async () => {
    const spy = vi.spyOn(process.stderr, 'write');
    try {
      await expect(
        reportingStall(
          'quick',
          async () => 1,
          () => 'never asked',
          60_000,
        ),
      ).resolves.toBe(1);
      await expect(reportingStall('failing', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
      expect(spy.mock.calls.map(([c]) => String(c)).filter((c) => c.includes('[stall]'))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
