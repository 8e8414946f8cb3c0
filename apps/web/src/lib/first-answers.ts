import { FIRST_ANSWERS_ELEMENT_ID } from '@portal/contract';

/** One read's answer as the server put it in the page: 200 and its JSON body. */
export interface FirstAnswer {
  status: number;
  body: unknown;
}

/** The page's answers by path: undefined until first asked for, null once ended (or none). */
let answers: Record<string, FirstAnswer | undefined> | null | undefined;

/** The answers the page carries, read once (and the element removed); null when it carries none. */
function readAnswers(): Record<string, FirstAnswer | undefined> | null {
  const element = typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
  element?.remove();
  try {
    const parsed: unknown = element?.textContent ? JSON.parse(element.textContent) : null;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, FirstAnswer>) : null;
  } catch {
    // Unreadable: the app reads everything itself, as without answers.
    return null;
  }
}

/**
 * The answer the server sent inside the page for a GET of `path` (under /api, with its query as
 * the app writes it), once: the page's first reads use it instead of a round trip
 * (docs/decisions/139). Nothing once `endFirstAnswers` was called: a later read of the same path
 * (after a change, say) always asks the server.
 */
export function takeFirstAnswer(path: string): FirstAnswer | undefined {
  if (answers === undefined) answers = readAnswers();
  const answer = answers?.[path];
  if (answers && answer) delete answers[path];
  return typeof answer?.status === 'number' ? answer : undefined;
}

/** Ends the start-up: answers not taken by then are dropped. */
export function endFirstAnswers(): void {
  answers = null;
  if (typeof document !== 'undefined') document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.remove();
}

/** For tests: the page's answers are read again, from the document as it is now. */
export function resetFirstAnswers(): void {
  answers = undefined;
}
