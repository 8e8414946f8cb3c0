import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { FINGERPRINT_MAX_LENGTH, isStorableText, isLicenseKeyChecksumValid, SIGNATURE_HEADER } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { RateLimit } from '../../plugins/rate-limit';
import type { LoadShedding } from '../../plugins/load-shedding';
import type { ValidateInput, MemoryAnswer } from './validation';

/** The route this serves, as Fastify names it (its metrics label). */
export const VALIDATE_ROUTE = '/api/licenses/:licenseKey/validate';

/** The path with a key already in its canonical form (upper case, check character unchecked here). */
const PATH = /^\/api\/licenses\/([2-9A-HJKMNP-Z]{5}(?:-[2-9A-HJKMNP-Z]{5}){4})\/validate$/;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
/** A fingerprint the contract's schema takes as it is (trimming changes nothing). */
const FINGERPRINT = new RegExp(`^[\\x21-\\x7e]{1,${FINGERPRINT_MAX_LENGTH}}$`);
/** The route's own rate-limit messages (licenses.routes.ts); the fast path's test compares the answers. */
const CLIENT_LIMITED = 'Too many license requests from this address.';
const KEY_LIMITED = 'Too many requests for this license key.';
const INTERNAL = JSON.stringify({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });

/** The body a request handed on to Fastify had, read here already (see replayBody). */
const READ_BODY = Symbol('validation body read by the fast path');
type HandedOn = IncomingMessage & { [READ_BODY]?: Buffer };

export type ValidationFastPathDeps = {
  /** The licenses service's validation from memory (validation.ts). */
  fromMemory: (key: string, input: ValidateInput) => (() => MemoryAnswer) | undefined;
  /** The `Signature` header of an answer's bytes, signed off the event loop. */
  signatureHeader: (body: Buffer) => Promise<string>;
  rateLimit: RateLimit;
  perMinute: number;
  shedding: LoadShedding;
  /** Counts an answer as the metrics hook does (plugins/observability.ts). */
  count: (status: number, seconds: number) => void;
  /** The security headers of every answer, in the order the security hook sets them. */
  securityHeaders: Array<[string, string]>;
  /** PUBLIC_URL's origin: the one Origin served here; any other is left to the security hook. */
  allowedOrigin: string;
  trustProxy: boolean | string;
  bodyLimit: number;
  logError: (err: unknown) => void;
};

/**
 * `POST /api/licenses/{key}/validate` served at the node:http level, before Fastify, for exactly
 * the requests whose answer memory alone gives: the answer, its headers, its rate limits and its
 * metrics are those the Fastify route gives (`validation-fast-path.test.ts` compares them byte
 * for byte). Everything else is handed on to Fastify untouched, or with the body read here
 * replayed to it (replayBody): any other method, path or key spelling, a query string, an Origin
 * other than PUBLIC_URL's, a cross-site fetch, a forwarded address it cannot read as Fastify does,
 * a chunked, empty-typed, non-JSON or oversized body, a body the contract would refuse or that is
 * not plain JSON of the two fields, a license not in memory (or not fresh), and any request while
 * the server is closing or full. See docs/decisions/037-validation-fast-path.md.
 */
export function createValidationFastPath(deps: ValidationFastPathDeps) {
  const stats = { answered: 0, handedOn: 0 };
  // The route's headers in its order: the type its handler sets, the security hook's, then the
  // signature hook's and Fastify's length. An error answer has the error handler's Retry-After first.
  // As one flat list of names and values, which node:http writes without building an object.
  const fixed = [
    ...['content-type', 'application/json; charset=utf-8'],
    ...deps.securityHeaders.flat(),
    ...['cache-control', 'no-store'],
  ];

  /** Signs the answer (on the thread pool), then writes it; an answer that cannot be signed ends the connection. */
  function send(res: ServerResponse, status: number, body: string, started: number, retryAfter?: string) {
    const bytes = Buffer.from(body, 'utf8');
    deps.signatureHeader(bytes).then(
      (signature) => {
        const signed = [SIGNATURE_HEADER, signature, 'content-length', String(bytes.length)];
        res.writeHead(status, retryAfter ? ['retry-after', retryAfter, ...fixed, ...signed] : [...fixed, ...signed]);
        res.end(bytes);
        stats.answered++;
        deps.count(status, (performance.now() - started) / 1000);
      },
      (err: unknown) => {
        deps.logError(err);
        res.destroy();
      },
    );
  }

  const clientOf = (req: IncomingMessage): string | undefined => {
    const forwarded = req.headers['x-forwarded-for'];
    if (deps.trustProxy === false || typeof forwarded !== 'string' || forwarded === '') return req.socket.remoteAddress;
    // With TRUST_PROXY=true Fastify trusts every hop: a single forwarded address is the client's.
    // Several hops, or a list of trusted proxies, are left to Fastify's own reading.
    if (deps.trustProxy !== true || forwarded.includes(',')) return undefined;
    return forwarded.trim() || req.socket.remoteAddress;
  };

  /** The answer, after the route's rate limits (client, then key), as the route gives it. */
  async function limitedAnswer(res: ServerResponse, key: string, client: string, give: () => MemoryAnswer, started: number) {
    try {
      await deps.rateLimit(`license:client:${client}`, deps.perMinute, CLIENT_LIMITED);
      await deps.rateLimit(`license:key:${key}`, deps.perMinute, KEY_LIMITED);
      await answer(res, give, started);
    } catch (err) {
      failed(res, err, started);
    }
  }

  /** The answer; synchronous unless the node's last-seen time must be written first (the app is closing). */
  function answer(res: ServerResponse, give: () => MemoryAnswer, started: number): Promise<void> | undefined {
    const { answer: body, pending } = give();
    if (pending) return pending.then(() => send(res, 200, JSON.stringify(body), started));
    send(res, 200, JSON.stringify(body), started);
    return undefined;
  }

  /** A rate limit's 429 as the error handler gives it (plugins/errors.ts); anything else is a 500. */
  function failed(res: ServerResponse, err: unknown, started: number) {
    if (err instanceof AppError && err.code === 'RATE_LIMITED') {
      const retryAfter = err.extra.retryAfterSeconds ? String(err.extra.retryAfterSeconds) : undefined;
      send(res, err.status, JSON.stringify({ message: err.message, code: err.code }), started, retryAfter);
      return;
    }
    deps.logError(err);
    // An answer that failed half-way cannot be replaced: its connection is ended instead.
    if (res.headersSent) res.destroy();
    else send(res, 500, INTERNAL, started);
  }

  /** Serves the request, or hands it on to `fastify` (answers nothing). */
  function serve(req: IncomingMessage, res: ServerResponse, fastify: (req: IncomingMessage, res: ServerResponse) => void) {
    const match = req.method === 'POST' ? PATH.exec(req.url ?? '') : null;
    const origin = req.headers.origin;
    const client = match ? clientOf(req) : undefined;
    const body = match ? bodyOf(req, deps.bodyLimit) : 'other';
    if (
      !match ||
      client === undefined ||
      body === 'other' ||
      (origin !== undefined && origin !== deps.allowedOrigin) ||
      req.headers['sec-fetch-site'] === 'cross-site' ||
      !isLicenseKeyChecksumValid(match[1]!) ||
      deps.shedding.refusing()
    ) {
      stats.handedOn++;
      fastify(req, res);
      return;
    }
    const started = performance.now();
    const key = match[1]!;
    const release = deps.shedding.admit(res);
    const handOn = (read?: Buffer) => {
      release();
      stats.handedOn++;
      if (read) (req as HandedOn)[READ_BODY] = read;
      fastify(req, res);
    };
    const decide = (read: Buffer | undefined) => {
      const input = read ? inputOf(read) : {};
      const give = input && deps.fromMemory(key, input);
      if (!give) handOn(read);
      else if (deps.perMinute > 0) void limitedAnswer(res, key, client, give, started);
      else {
        try {
          void answer(res, give, started)?.catch((err: unknown) => failed(res, err, started));
        } catch (err) {
          failed(res, err, started);
        }
      }
    };
    if (body === 'none') {
      decide(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => {
      const read = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (size !== body) handOn(read);
      else decide(read);
    });
  }

  return { serve, stats: () => ({ ...stats }) };
}

/** 'none' without a body, its length for a JSON body within the limit, else 'other' (Fastify decides). */
function bodyOf(req: IncomingMessage, limit: number): 'none' | 'other' | number {
  const { 'content-type': type, 'content-length': length, 'transfer-encoding': chunked } = req.headers;
  if (chunked !== undefined) return 'other';
  if (type === undefined) return length === undefined || length === '0' ? 'none' : 'other';
  if (!JSON_TYPES.has(type) || length === undefined || !/^[1-9][0-9]{0,8}$/.test(length)) return 'other';
  const n = Number(length);
  return n <= limit ? n : 'other';
}

/**
 * The input, when the contract's schema takes the body exactly as it is: a JSON object of at most
 * `fingerprint` (printable ASCII, no spaces, within the length) and `nonce` (storable text of at
 * most 128 characters), in valid UTF-8. Anything else, even what the schema would take after
 * trimming, is left to Fastify's parser and schema.
 */
function inputOf(read: Buffer): ValidateInput | undefined {
  let value: unknown;
  try {
    value = JSON.parse(read.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const input: ValidateInput = {};
  for (const [name, v] of Object.entries(value)) {
    if (name === 'fingerprint' && typeof v === 'string' && FINGERPRINT.test(v)) input.fingerprint = v;
    else if (name === 'nonce' && typeof v === 'string' && v.length <= 128 && isStorableText(v)) input.nonce = v;
    else return undefined;
  }
  return isUtf8(read) ? input : undefined;
}

/**
 * Fastify's preParsing hook of the validate route: a request the fast path read and handed on gets
 * its body back, byte for byte, so Fastify parses and checks it as if it had come from the socket.
 */
export async function replayBody(req: FastifyRequest, _reply: unknown, payload: unknown) {
  const read = (req.raw as HandedOn)[READ_BODY];
  if (!read) return payload;
  const replay = new Readable({ read() {} });
  replay.push(read);
  replay.push(null);
  return replay;
}
