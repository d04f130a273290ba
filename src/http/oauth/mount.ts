// Rhizome's own OAuth 2.1 authorization server for remote MCP clients (docs/mcp-remote.md):
// outside /api/v1, like /mcp, because OAuth clients expect OAuth's shapes, not the API's.
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Services } from '../../container.js';
import { PayloadTooLargeError } from '../../errors.js';
import type { AppEnv } from '../router.js';
import { authorizeMount } from './authorize.js';
import { endpointsMount } from './endpoints.js';

/**
 * Discovery, registration, token and revocation answer any origin (no cookies, no
 * credentials): a browser-based MCP client runs the whole flow with fetch. Mounted before
 * the routes it covers (the protected-resource metadata lives with /mcp).
 */
export function oauthCors(app: Hono<AppEnv>): void {
  const open = cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'Authorization', 'MCP-Protocol-Version'], maxAge: 600 });
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/*', '/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/*', '/oauth/token', '/oauth/register', '/oauth/revoke']) app.use(path, open);
}

export function oauthMount(app: Hono<AppEnv>, s: Services): void {
  app.use('/oauth/*', bodyLimit({ maxSize: 64 * 1024, onError: () => { throw new PayloadTooLargeError('OAuth request body exceeds 64 KB'); } }));
  endpointsMount(app, s);
  authorizeMount(app, s);
}
