import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FIRST_ANSWERS_ELEMENT_ID, pageFirstReads, START_UP_READS, subscriptionInvoicesPath } from '@portal/contract';

/** A read's answer as the page carries it: the status (always 200: others are left to the app) and the JSON body. */
export interface FirstAnswer {
  status: number;
  body: unknown;
}

/** Answers by path under /api. */
export type FirstAnswers = Record<string, FirstAnswer>;

/**
 * The longest a signed-in page waits for its first reads before it goes out without them (the app
 * then reads them itself, and shows their skeletons meanwhile): a slow database holds the page a
 * second at most.
 */
export const FIRST_ANSWERS_WAIT_MS = 1000;

type SessionAnswer = { user?: { onboarded?: unknown } };

/**
 * The answers of the first reads of the signed-in page `req` asks for (docs/decisions/139), read
 * through the app's own routes with the request's cookie, as the browser would read them a moment
 * later: the same session, rules and limits. Undefined without a cookie, for any other page, for
 * someone not signed in or not onboarded, or when the reads take longer than `waitMs`; a read
 * answering anything but 200 is left out (the app asks again and shows what it gets).
 */
export async function readFirstAnswers(
  app: FastifyInstance,
  req: FastifyRequest,
  waitMs = FIRST_ANSWERS_WAIT_MS,
): Promise<FirstAnswers | undefined> {
  const cookie = req.headers.cookie;
  if (!cookie || req.method !== 'GET') return undefined;
  const address = new URL(req.url, 'http://page');
  const reads = pageFirstReads(address.pathname, address.searchParams);
  if (!reads) return undefined;
  const get = async (path: string): Promise<[string, FirstAnswer] | undefined> => {
    const res = await app.inject({
      method: 'GET',
      url: `/api${path}`,
      headers: {
        cookie,
        accept: 'application/json',
        ...(req.headers['user-agent'] ? { 'user-agent': req.headers['user-agent'] } : {}),
      },
      remoteAddress: req.ip,
    });
    if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
    return [path, { status: 200, body: res.json() }];
  };
  const read = async () => {
    const [session, config] = await Promise.all(START_UP_READS.map(get));
    if ((session?.[1].body as SessionAnswer | undefined)?.user?.onboarded !== true) return undefined;
    const answers = await Promise.all(reads.paths.map(get));
    if (reads.invoicesOfEachSubscription) {
      const list = answers.find((a) => a?.[0] === reads.paths[0])?.[1].body as { items?: { stripeId?: unknown }[] } | undefined;
      const ids = (list?.items ?? []).map((s) => s.stripeId).filter((id): id is string => typeof id === 'string');
      answers.push(...(await Promise.all(ids.map((id) => get(subscriptionInvoicesPath(id))))));
    }
    return Object.fromEntries([session, config, ...answers].filter((a) => a !== undefined));
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `html` with `answers` inside, as JSON in a script element the browser does not run (so the
 * content security policy needs nothing): every `<`, `>` and `&` is escaped, so no answer can
 * close the element or open another.
 */
export function withFirstAnswers(html: string, answers: FirstAnswers): string {
  const json = JSON.stringify(answers).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const element = `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${json}</script>`;
  const at = html.lastIndexOf('</body>');
  return at < 0 ? html + element : `${html.slice(0, at)}${element}${html.slice(at)}`;
}
