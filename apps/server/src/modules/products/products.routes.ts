import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReleaseFile } from '../../providers/storage';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DownloadFileParamsSchema,
  DownloadFileQuerySchema,
  DownloadInfoSchema,
  DownloadQuerySchema,
  ErrorSchema,
  LicenseSummarySchema,
  SupportInfoSchema,
} from '@portal/contract';
import { signedIn } from '../../plugins/session';
import { etagOf, matchesEtag, parseRange } from './downloads';
import type { ProductService } from './products.service';

const contentTypeOf = (file: string) =>
  file.toLowerCase().endsWith('.iso') ? 'application/x-iso9660-image' : 'application/octet-stream';

export async function productsRoutes(app: FastifyInstance, { products }: { products: ProductService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/products/support',
    signedIn({
      summary: 'Support plan (from the subscriptions), contacts, hours, response times and links',
      response: { 200: SupportInfoSchema },
    }),
    async (req) => products.supportInfo(req.user.id),
  );

  r.get(
    '/products/licenses',
    signedIn({
      summary: "The dashboard's license figures: licenses, nodes in use and allowed, licenses at their limit or expiring soon",
      response: { 200: LicenseSummarySchema },
    }),
    async (req) => products.licenseSummary(req.user.id),
  );

  r.get(
    '/products/pce/download',
    signedIn({
      summary: 'The newest ISO with a signed, expiring download URL (the same URL until it nears expiry)',
      querystring: DownloadQuerySchema,
      response: { 200: DownloadInfoSchema, 400: ErrorSchema, 404: ErrorSchema, 503: ErrorSchema },
    }),
    async (req) => products.getDownload(req.user.id, { refresh: req.query.refresh === 'true' }),
  );

  // No session: the signature is the credential, so the URL also works from curl or a download manager.
  r.route({
    method: ['GET', 'HEAD'],
    url: '/products/pce/files/:filename',
    schema: {
      summary: 'The ISO file behind a signed URL; supports HTTP Range for resumed downloads',
      params: DownloadFileParamsSchema,
      querystring: DownloadFileQuerySchema,
      response: { 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 410: ErrorSchema, 416: ErrorSchema },
    },
    handler: async (req, reply) => {
      const { file, userId } = await products.downloads.openSigned(req.params.filename, req.query);
      return sendReleaseFile(req, reply as unknown as FastifyReply, file, { userId, read: products.downloads.read });
    },
  });

  // The newest ISO itself, for a session or an API token with downloads:read (token-scopes.ts):
  // `curl -H "Authorization: Bearer pat_…" …/api/downloads/iso -o pce.iso` (docs/api-tokens.md).
  r.route({
    method: ['GET', 'HEAD'],
    url: '/downloads/iso',
    ...signedIn({
      summary: 'The newest ISO itself, with HTTP Range, its ETag and its SHA-256 (Repr-Digest, X-Checksum-SHA256)',
      response: { 403: ErrorSchema, 404: ErrorSchema, 416: ErrorSchema, 503: ErrorSchema },
    }),
    handler: async (req, reply) => {
      const { file, sha256 } = await products.downloads.latestFile();
      return sendReleaseFile(req, reply as unknown as FastifyReply, file, {
        userId: req.user.id,
        sha256,
        read: products.downloads.read,
      });
    },
  });
}

/**
 * A release file with HTTP Range (one range 206, several the whole file, past the end 416), its
 * ETag and If-Range, 304 for a matching If-None-Match, and HEAD without the bytes. With `sha256`,
 * the whole file's digest as `Repr-Digest` (RFC 9530) and as hex in `X-Checksum-SHA256`.
 */
function sendReleaseFile(
  req: FastifyRequest,
  reply: FastifyReply,
  file: ReleaseFile,
  opts: { userId: string; sha256?: string; read: ProductService['downloads']['read'] },
) {
  const etag = etagOf(file);
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', new Date(file.mtimeMs).toUTCString())
    .header('cache-control', 'private, no-store');
  if (opts.sha256) {
    reply
      .header('repr-digest', `sha-256=:${Buffer.from(opts.sha256, 'hex').toString('base64')}:`)
      .header('x-checksum-sha256', opts.sha256);
  }
  if (matchesEtag(req.headers['if-none-match'], etag)) return reply.status(304).send();

  // A resume against a replaced file must not splice two files: If-Range falls back to the whole file.
  const ifRange = req.headers['if-range'];
  const range =
    ifRange !== undefined && ifRange !== etag ? ({ kind: 'full' } as const) : parseRange(req.headers.range, file.size);
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${file.size}`)
      .send({ message: `The requested range is not valid for this file of ${file.size} bytes`, code: 'BAD_REQUEST' });
  }
  req.log.info({ file: file.file, userId: opts.userId, range: req.headers.range }, 'release download');
  reply.header('content-disposition', `attachment; filename="${file.file}"`).type(contentTypeOf(file.file));
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${file.size}`)
      .header('content-length', String(end - start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  if (req.method === 'HEAD') return reply.send();
  return reply.send(opts.read(file, range.kind === 'partial' ? range.range : undefined));
}
