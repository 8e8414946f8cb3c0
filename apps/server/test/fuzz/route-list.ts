import type { FastifyInstance } from 'fastify';
import { routeId, type RouteEntry } from './routes';

export type LiveRoute = { method: string; url: string };

/**
 * Every route the application really registered. Fastify has no public list, but `printRoutes`
 * draws the router's tree, one node a line (`├── segment (GET, HEAD)`, four columns per level),
 * and each node's full path is its parent's path plus its own segment.
 */
export function liveRoutes(app: FastifyInstance): LiveRoute[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const routes: LiveRoute[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) throw new Error(`printRoutes drew a line this parser does not know: ${JSON.stringify(line)}`);
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = url;
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  // The parser must agree with the router itself, or a format change would hide routes. (The
  // router cannot be asked about swagger-ui's wildcard route, registered with constraints.)
  for (const r of routes) {
    if (!r.url.endsWith('*') && !app.hasRoute({ method: r.method as 'GET', url: r.url }))
      throw new Error(`parsed a route the app does not have: ${routeId(r)}`);
  }
  return routes;
}

/** A HEAD route is the automatic companion of a GET route of the table. */
export function tableCovers(table: readonly RouteEntry[], live: LiveRoute): boolean {
  const method = live.method === 'HEAD' ? 'GET' : live.method;
  return table.some((r) => r.method === method && r.url === live.url);
}

/** The differences between the table and the live routes, each named, for a failure message. */
export function compareWithTable(table: readonly RouteEntry[], live: readonly LiveRoute[]) {
  const missingFromTable = live.filter((r) => !tableCovers(table, r)).map(routeId);
  const notInApp = table.filter((t) => !live.some((l) => l.method === t.method && l.url === t.url)).map(routeId);
  return { missingFromTable: [...new Set(missingFromTable)].sort(), notInApp: notInApp.sort() };
}
