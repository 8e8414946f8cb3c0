import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../lib/errors';
import { bearerOf } from '../modules/api-tokens/api-token-fns';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The Content-Security-Policy. Stripe.js (its script, its card and 3-D Secure frames, its API) is
 * allowed only when Stripe is the billing provider; the embedded engine's pages load nothing from
 * another site.
 */
export function contentSecurityPolicy(opts: { stripe: boolean }): string {
  const stripeJs = opts.stripe ? ' https://js.stripe.com https://*.js.stripe.com' : '';
  return [
    "default-src 'self'",
    `script-src 'self'${stripeJs}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' https://*.posthog.com${opts.stripe ? ' https://api.stripe.com' : ''}`,
    opts.stripe ? `frame-src${stripeJs} https://hooks.stripe.com` : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Security headers on every answer, and the cross-site rules of docs/decisions/008-security-rules.md. */
export function registerSecurity(app: FastifyInstance, opts: { publicUrl: string; hsts: boolean; csp: string }) {
  const publicUrl = new URL(opts.publicUrl);
  const allowedOrigin = publicUrl.origin;

  app.addHook('onRequest', async (req) => {
    if (!UNSAFE.has(req.method)) return;
    // Webhooks come from the payment provider and carry their own signature.
    if (req.url.startsWith('/api/billing/webhook')) return;
    // A bearer request authenticates with its token alone, never a cookie, and a browser sends
    // an Authorization header to another site only after a CORS preflight, which no listener
    // answers: the cross-site rules guard cookies, so they do not apply (docs/decisions/096).
    if (bearerOf(req.headers.authorization)) return;
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('CROSS_SITE_REQUEST', 'Cross-site requests are not allowed');
    }
    const origin = req.headers.origin;
    if (origin === undefined || origin === allowedOrigin) return;
    // The origin the request was addressed to counts only for PUBLIC_URL's host and loopback
    // aliases (localhost and 127.0.0.1 for the same local portal): with any Host at all, a DNS
    // rebinding page (whose Host and Origin are both the attacker's name) would pass.
    const host = hostnameOf(req.headers.host);
    const ownHost = host !== undefined && (host === publicUrl.hostname || isLoopback(host));
    if (!ownHost || origin !== requestOrigin(req.protocol, req.headers.host)) {
      throw new AppError('CROSS_SITE_REQUEST', 'Requests from other sites are not allowed');
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    applySecurityHeaders(reply, opts);
    applyApiCaching(req, reply);
    return payload;
  });
}

/**
 * No answer of the API is kept by a browser or a proxy, whatever its type (a CSV export or an
 * invoice page holds a customer's data as much as JSON does): `no-store`, unless the route already
 * chose a stricter form of it (`private, no-store`).
 */
export function applyApiCaching(req: { url: string }, reply: FastifyReply) {
  if (!req.url.startsWith('/api/')) return;
  if (!String(reply.getHeader('cache-control') ?? '').includes('no-store')) reply.header('cache-control', 'no-store');
}

/** The headers every answer carries; also called for router errors, which skip the hooks. */
export function applySecurityHeaders(reply: FastifyReply, opts: { hsts: boolean; csp: string }) {
  reply.header('content-security-policy', opts.csp);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
  if (opts.hsts) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}

function requestOrigin(protocol: string, host: string | undefined): string | undefined {
  return host ? `${protocol}://${host}` : undefined;
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** localhost (and its subdomains), 127.0.0.0/8 and [::1]: names that only ever reach this machine. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
