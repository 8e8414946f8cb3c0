/** A fetch stand-in answering JSON by "METHOD /path" (path without origin, with query). */
export function fakeFetch(answers: Record<string, { status: number; body?: unknown }>) {
  const calls: Array<{ method: string; path: string; body: string | null }> = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}${url.search}`;
    const body = request.method === 'GET' ? null : await request.clone().text();
    calls.push({ method: request.method, path: url.pathname + url.search, body });
    const answer = answers[key] ?? answers[`${request.method} ${url.pathname}`];
    if (!answer)
      return new Response(JSON.stringify({ message: `No fake for ${key}`, code: 'NOT_FOUND' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fn, calls };
}
