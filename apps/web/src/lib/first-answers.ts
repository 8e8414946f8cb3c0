import { FIRST_ANSWERS_ELEMENT_ID } from '@portal/contract';

/** One read's answer as the server put it in the page: 200 and its JSON body. */
export interface FirstAnswer {
  status: number;
  body: unknown;
}

let answers: Map<string, FirstAnswer> | 'unread' | 'ended' = 'unread';

function readAnswers(): Map<string, FirstAnswer> {
  const element = typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
  const found = new Map<string, FirstAnswer>();
  if (!element?.textContent) return found;
  try {
    const parsed: unknown = JSON.parse(element.textContent);
    if (parsed && typeof parsed === 'object') {
      for (const [path, answer] of Object.entries(parsed)) {
        const status = (answer as Partial<FirstAnswer> | null)?.status;
        if (typeof status === 'number') found.set(path, { status, body: (answer as FirstAnswer).body });
      }
    }
  } catch {
    // Unreadable: the app reads everything itself, as without answers.
  }
  element.remove();
  return found;
}

/**
 * The answer the server sent inside the page for a GET of `path` (under /api, with its query as
 * the app writes it), once: the page's first reads use it instead of a round trip
 * (docs/decisions/139). Nothing once `endFirstAnswers` was called: a later read of the same path
 * (after a change, say) always asks the server.
 */
export function takeFirstAnswer(path: string): FirstAnswer | undefined {
  if (answers === 'ended') return undefined;
  if (answers === 'unread') answers = readAnswers();
  const answer = answers.get(path);
  answers.delete(path);
  return answer;
}

/** Ends the start-up: answers not taken by then are dropped. */
export function endFirstAnswers(): void {
  answers = 'ended';
  if (typeof document !== 'undefined') document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.remove();
}

/** For tests: the page's answers are read again, from the document as it is now. */
export function resetFirstAnswers(): void {
  answers = 'unread';
}
