// Cross-origin access to the API for browser extensions only. The Rhizome browser
// extension calls the API from its own origin (`chrome-extension://<id>`,
// `moz-extension://<uuid>`) with `Authorization: ApiKey ...`; those origins get the
// CORS headers they need. Every other origin (an ordinary web page) gets none, so a
// page the user visits can never read the API's answers, even if it guessed a key.
// No cookies are involved, so Access-Control-Allow-Credentials is never sent.
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\/[A-Za-z0-9-]{1,64}$/;

export function isExtensionOrigin(origin: string | undefined): origin is string {
  return !!origin && EXTENSION_ORIGIN.test(origin);
}

export function extensionCors(): MiddlewareHandler {
  const allow = cors({
    origin: (origin) => (isExtensionOrigin(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['Retry-After', 'Location'],
    maxAge: 600,
  });
  // Other origins skip the middleware entirely: a preflight from them falls through to
  // authentication (401, no CORS headers), so the browser refuses the real request.
  return (c, next) => (isExtensionOrigin(c.req.header('origin')) ? allow(c, next) : next());
}
