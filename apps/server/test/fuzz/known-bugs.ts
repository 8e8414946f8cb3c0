/**
 * Server bugs these tests found and that are not fixed yet. Each is matched narrowly (by the answer
 * the bug produces), so the properties stay strict about everything else, and each has a reproducer
 * in `regressions.test.ts` asserting the buggy answer: once the fix lands, the reproducer becomes a
 * regression test and the entry here is deleted. FUZZ_STRICT=1 turns the excuses off.
 */

export type Answer = { statusCode: number; body: string };
export type KnownBug = {
  id: string;
  summary: string;
  fix: string;
  /** True when this answer to this request is the bug (and nothing else). */
  matches: (request: { url: string; payload?: unknown }, answer: Answer) => boolean;
};

/** Open known bugs (none now; the fixed ones are regression tests in regressions.test.ts). */
export const KNOWN_BUGS: KnownBug[] = [];

export const STRICT = process.env.FUZZ_STRICT === '1';

/** The known bug this answer is, if any (none in strict mode). */
export function knownBug(request: { url: string; payload?: unknown }, answer: Answer): KnownBug | undefined {
  return STRICT ? undefined : KNOWN_BUGS.find((b) => b.matches(request, answer));
}
