import { createRoute } from '@hono/zod-openapi';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyList, MagicLinkRequest, MagicLinkVerify, RefreshRequest, TokenPair } from '../../schemas/auth.js';
import { body, errors, IdParam, json } from '../../schemas/common.js';
import type { Services } from '../../container.js';
import { createRouter } from '../router.js';

export function authRoutes(s: Services) {
  const r = createRouter();

  r.openapi(
    createRoute({ method: 'get', path: '/auth/api-keys', tags: ['auth'], summary: 'List API keys (never the secret)', responses: { 200: json(ApiKeyList), ...errors() } }),
    async (c) => c.json({ data: await s.auth.listApiKeys(c.get('tenantId')) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/api-keys', tags: ['auth'], summary: 'Create an API key; the raw key is in this response only',
      request: body(ApiKeyCreate), responses: { 201: json(ApiKeyCreated, 'Created'), ...errors(400) },
    }),
    async (c) => c.json(await s.auth.createApiKey(c.get('tenantId'), c.req.valid('json').name), 201),
  );

  r.openapi(
    createRoute({
      method: 'delete', path: '/auth/api-keys/{id}', tags: ['auth'], summary: 'Revoke an API key (effective on the next request)',
      request: { params: IdParam }, responses: { 204: { description: 'Revoked' }, ...errors(404) },
    }),
    async (c) => {
      await s.auth.revokeApiKey(c.get('tenantId'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/magic-link', tags: ['auth'], summary: 'Email a sign-in link (always 202: no account enumeration)',
      security: [], request: body(MagicLinkRequest), responses: { 202: { description: 'Accepted' }, ...errors(400) },
    }),
    async (c) => {
      await s.auth.requestMagicLink(c.req.valid('json').email);
      return c.body(null, 202);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/magic-link/verify', tags: ['auth'], summary: 'Exchange a magic-link token (once) for tokens',
      security: [], request: body(MagicLinkVerify), responses: { 200: json(TokenPair), ...errors(400) },
    }),
    async (c) => c.json(await s.auth.verifyMagicLink(c.req.valid('json').token), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/refresh', tags: ['auth'], summary: 'Rotate a refresh token; reuse revokes the session family',
      security: [], request: body(RefreshRequest), responses: { 200: json(TokenPair), ...errors(400) },
    }),
    async (c) => c.json(await s.auth.refresh(c.req.valid('json').refresh_token), 200),
  );
  r.openapi(
    createRoute({
      method: 'post', path: '/auth/logout', tags: ['auth'], summary: 'End a session: revokes the refresh token\'s family and its access tokens at once',
      security: [], request: body(RefreshRequest), responses: { 204: { description: 'Signed out (also for an unknown token: nothing is revealed)' }, ...errors(400) },
    }),
    async (c) => {
      await s.auth.logout(c.req.valid('json').refresh_token);
      return c.body(null, 204);
    },
  );

  return r;
}
