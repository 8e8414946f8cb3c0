import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FirstAnswers, withFirstAnswers } from './first-answers';

/**
 * JSON answers at least this long are compressed. Below about one network packet compression
 * saves no round trip and costs CPU: the small answers of the hot paths (license validation,
 * the session) go out as they are, after a single length check.
 */
export const JSON_COMPRESSION_THRESHOLD = 1400;

/** Answers signed over their exact bytes by a route-level hook that runs after this one. */
const SIGNED = /^\/api\/licenses\/[^/]+\/(?:validate|activate)(?:\?|$)/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

/** The encoding the client prefers among ours (q-values honoured, q=0 refuses). */
export function pickEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of String(header).toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const wildcard = accepted.get('*');
  const weight = (e: Encoding) => accepted.get(e) ?? wildcard ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/** Compresses an answer made for one request (Brotli at a fast level, or gzip), off the event loop. */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipAsync(body, { level: 6 });
}

function addVary(reply: FastifyReply) {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary))
    reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compresses JSON answers above the threshold (Brotli at a fast level, or gzip), off the event
 * loop. Static files are compressed at build time instead (registerWebApp) and never pass here
 * compressed twice: they are streams, and this hook only takes strings and buffers.
 */
export function registerJsonCompression(app: FastifyInstance, threshold = JSON_COMPRESSION_THRESHOLD) {
  app.addHook('onSend', async (req, reply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (payload.length < threshold) return payload;
    if (req.method === 'HEAD' || reply.getHeader('content-encoding') || SIGNED.test(req.url)) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    addVary(reply);
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const compressed = await compress(body, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}

/** A page of the build with its build-time .br and .gz beside it, when the build made them. */
function loadPage(root: string, name: string) {
  const file = (ext = '') => path.join(root, `${name}${ext}`);
  const read = (ext: string) => (existsSync(file(ext)) ? readFileSync(file(ext)) : undefined);
  const html = readFileSync(file());
  return { html, text: html.toString('utf8'), br: read('.br'), gzip: read('.gz') };
}

/**
 * A part of the app whose pages all need the same lazily loaded code, and the copy of index.html
 * that preloads it (the web build's `sectionPage`): `/app` and everything under it, app.html.
 */
export interface SectionPage {
  prefix: string;
  file: string;
}

/** The last path segment has a file extension: a missing file, never a page of the app. */
const looksLikeFile = (pathname: string) => /\.[a-z0-9]+$/i.test(pathname.slice(pathname.lastIndexOf('/') + 1));

export type PageSender = (req: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply> | undefined;

/**
 * Answers a page path of the single-page app with index.html (the router takes over), or with the
 * section's own copy for a path in one of `sections` that the build made, compressed when the
 * client accepts it, never cached (a deploy must reach the next visit). With `firstAnswers`, a
 * section's page asked for with a cookie carries the answers of its first reads when there are
 * some (docs/decisions/139): that copy is made for the one request, and never stored. Answers
 * undefined for paths that are not pages: the API, assets, and missing files such as /favicon.ico.
 */
export function spaPageSender(
  root: string,
  sections: readonly SectionPage[] = [],
  opts: { firstAnswers?: (req: FastifyRequest) => Promise<FirstAnswers | undefined> } = {},
): PageSender {
  const index = loadPage(root, 'index.html');
  const pages = sections
    .filter((s) => existsSync(path.join(root, s.file)))
    .map((s) => ({ prefix: s.prefix, page: loadPage(root, s.file) }));
  const pageFor = (pathname: string) =>
    pages.find((p) => pathname === p.prefix || pathname.startsWith(`${p.prefix}/`))?.page ?? index;
  const sendStored = (req: FastifyRequest, reply: FastifyReply, page: ReturnType<typeof loadPage>) => {
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const body = encoding && page[encoding];
    if (encoding && body) return reply.header('content-encoding', encoding).send(body);
    return reply.send(page.html);
  };
  const sendWithAnswers = async (req: FastifyRequest, reply: FastifyReply, page: ReturnType<typeof loadPage>) => {
    const answers = await opts.firstAnswers!(req).catch((err: unknown) => {
      req.log.warn({ err }, 'the first reads of a page failed: the page goes out without them');
      return undefined;
    });
    if (!answers) return sendStored(req, reply, page);
    // The page holds this customer's data: kept nowhere, and never answered to another cookie.
    reply.header('cache-control', 'no-store').header('vary', 'Accept-Encoding, Cookie');
    const html = Buffer.from(withFirstAnswers(page.text, answers));
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(html);
    return reply.header('content-encoding', encoding).send(await compress(html, encoding));
  };
  return (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isPage =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/assets/') &&
      !looksLikeFile(pathname);
    if (!isPage) return undefined;
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    addVary(reply);
    const page = pageFor(pathname);
    if (opts.firstAnswers && page !== index && req.method === 'GET' && req.headers.cookie)
      return sendWithAnswers(req, reply, page);
    return sendStored(req, reply, page);
  };
}

/**
 * The built web app's files: the precompressed .br or .gz written at build time when the client
 * accepts it, hashed assets cached for a year, other files (robots.txt, the icon) for 5 minutes.
 * Page paths fall through to spaPageSender (through the not-found handler).
 */
export async function registerWebApp(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Our own Cache-Control below (the plugin's default would overwrite it).
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      // The same address answers Brotli, gzip or plain bytes by the request's Accept-Encoding.
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
}
