import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../lib/errors';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self' https://*.posthog.com https://api.stripe.com",
  "frame-src https://js.stripe.com https://hooks.stripe.com",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Security headers on every answer, and the cross-site rules of DESIGN.md section 6. */
export function registerSecurity(app: FastifyInstance, opts: { publicUrl: string; hsts: boolean }) {
  const allowedOrigin = new URL(opts.publicUrl).origin;

  app.addHook('onRequest', async (req) => {
    if (!UNSAFE.has(req.method)) return;
    // Webhooks come from the payment provider and carry their own signature.
    if (req.url.startsWith('/api/billing/webhook')) return;
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('CROSS_SITE_REQUEST', 'Cross-site requests are not allowed');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== allowedOrigin && origin !== requestOrigin(req.protocol, req.headers.host)) {
      throw new AppError('CROSS_SITE_REQUEST', 'Requests from other sites are not allowed');
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    applySecurityHeaders(reply, opts.hsts);
    const type = String(reply.getHeader('content-type') ?? '');
    if (req.url.startsWith('/api/') && type.startsWith('application/json')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The headers every answer carries; also called for router errors, which skip the hooks. */
export function applySecurityHeaders(reply: FastifyReply, hsts: boolean) {
  reply.header('content-security-policy', CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
  if (hsts) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}

function requestOrigin(protocol: string, host: string | undefined): string | undefined {
  return host ? `${protocol}://${host}` : undefined;
}
