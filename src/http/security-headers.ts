// Security headers on every response (hono's secure-headers middleware): API responses and
// problem+json get a CSP that allows nothing at all; the dashboard and the Swagger UI page get
// one that allows their own scripts and styles. All carry frame-ancestors 'none' (and
// X-Frame-Options for old browsers), nosniff and Referrer-Policy: no-referrer.
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

const common = {
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  xContentTypeOptions: 'nosniff',
  // The server speaks plain HTTP on loopback by default; HSTS belongs to the TLS proxy.
  strictTransportSecurity: false,
  // The browser extension reads API responses cross-origin (CORS decides that, not CORP).
  crossOriginResourcePolicy: false,
} as const;

/**
 * JSON and problem+json: nothing may load, run or frame. A handler that serves a document
 * sets its own policy (an archived page may show its inlined data: images) and keeps it.
 */
const api = secureHeaders({
  ...common,
  overwrite: false,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
});

/** Pages (dashboard, /api/v1/docs): own scripts only, no inline script, no framing. */
const page = secureHeaders({
  ...common,
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Preact and Swagger UI set style attributes; styles cannot run code.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    // The graph's layout worker is a file of the dashboard's own (no blob: workers).
    workerSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

/**
 * The authorization server: its JSON endpoints get the API's headers; its pages set their
 * own stricter CSP (a style nonce, form targets), which this one must not overwrite.
 */
const oauth = secureHeaders({
  ...common,
  overwrite: false,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
});

function isApi(path: string): boolean {
  if (path === '/health' || path === '/mcp' || path.startsWith('/mcp/')) return true;
  if (path.startsWith('/api/v1/docs')) return false;
  return path.startsWith('/api/');
}

export function securityHeaders(): MiddlewareHandler {
  return (c, next) => (c.req.path.startsWith('/oauth/') ? oauth(c, next) : isApi(c.req.path) ? api(c, next) : page(c, next));
}
