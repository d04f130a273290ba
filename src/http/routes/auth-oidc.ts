// Sign-in with an identity provider (OpenID Connect) and sign-out. All public: the
// provider's answer, the one-time hand-off code or the refresh token is the credential.
import { createRoute, z } from '@hono/zod-openapi';
import { TokenPair } from '../../schemas/auth.js';
import { body, errors, json } from '../../schemas/common.js';
import type { Services } from '../../container.js';
import { createRouter } from '../router.js';

const Name = z.object({ name: z.string().min(1).max(40).openapi({ param: { name: 'name', in: 'path' }, example: 'authentik' }) });
const Provider = z
  .object({
    name: z.string(),
    label: z.string().openapi({ description: 'For the button: "Sign in with {label}"' }),
    start_url: z.string(),
    device: z.boolean().openapi({ description: 'The provider offers the device authorization grant (`rhizome login --device`)' }),
    logout: z.boolean().openapi({ description: 'The provider offers RP-initiated logout' }),
    available: z.boolean().openapi({ description: 'Discovery worked' }),
  })
  .openapi('OidcProvider');
const StartQuery = z.object({
  client: z.enum(['web', 'cli']).default('web'),
  return_to: z.string().max(500).optional().openapi({ description: 'web: dashboard path to land on' }),
  redirect_uri: z.string().max(500).optional().openapi({ description: 'cli: loopback listener http://127.0.0.1:PORT/PATH (RFC 8252)' }),
  state: z.string().min(16).max(200).optional().openapi({ description: 'cli: echoed to the loopback listener' }),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional().openapi({ description: 'S256 challenge for the hand-off exchange (required for cli)' }),
});
// The provider writes this query string (and may add iss, session_state...): loose by design.
const CallbackQuery = z.looseObject({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});
const Exchange = z
  .strictObject({ code: z.string().min(1).max(200), code_verifier: z.string().min(43).max(128).optional() })
  .openapi('OidcExchange');
const Session = TokenPair.extend({ provider: z.string() }).openapi('OidcSession');
const DeviceStart = z
  .object({ device_id: z.string(), user_code: z.string(), verification_uri: z.string(), verification_uri_complete: z.string().optional(), interval: z.number().int(), expires_in: z.number().int() })
  .openapi('OidcDeviceStart');
const DevicePoll = z.strictObject({ device_id: z.string().min(1).max(200) }).openapi('OidcDevicePoll');
const Pending = z.object({ status: z.literal('pending'), interval: z.number().int() });
const redirect = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' as const } } } });

export function authOidcRoutes(s: Services) {
  const r = createRouter();
  const tags = ['auth'];

  r.openapi(
    createRoute({ method: 'get', path: '/auth/oidc/providers', tags, security: [], summary: 'Identity providers configured for sign-in', responses: { 200: json(z.object({ data: z.array(Provider) })), ...errors(400) } }),
    async (c) => {
      const data = await Promise.all(
        s.oidc.providers.list.map(async (p) => {
          const d = await s.oidc.providers.describe(p.name);
          return { name: p.name, label: p.label, start_url: `/api/v1/auth/oidc/${p.name}/start`, device: d?.device ?? false, logout: d?.logout ?? false, available: d !== null };
        }),
      );
      return c.json({ data }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/auth/oidc/{name}/start', tags, security: [], summary: 'Start sign-in: redirects to the provider (authorization code + PKCE, state, nonce)',
      request: { params: Name, query: StartQuery }, responses: { 302: redirect('To the provider\'s authorization endpoint'), ...errors(400, 404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const url = await s.oidc.start(c.req.valid('param').name, { client: q.client, returnTo: q.return_to, redirectUri: q.redirect_uri, state: q.state, codeChallenge: q.code_challenge });
      c.header('Cache-Control', 'no-store');
      return c.redirect(url, 302);
    },
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/auth/oidc/{name}/callback', tags, security: [], summary: 'The provider\'s redirect: verifies the answer, then redirects with a one-time hand-off code (dashboard: in the fragment; CLI: to its loopback listener)',
      request: { params: Name, query: CallbackQuery }, responses: { 302: redirect('To the dashboard or the CLI, with `oidc_code` or `oidc_error`'), ...errors(400, 404) },
    }),
    async (c) => {
      const url = await s.oidc.callback(c.req.valid('param').name, new URL(c.req.url).searchParams);
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return c.redirect(url, 302);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/oidc/exchange', tags, security: [], summary: 'Exchange a one-time hand-off code (and its PKCE verifier) for tokens',
      request: body(Exchange), responses: { 200: json(Session), ...errors(400) },
    }),
    async (c) => {
      const b = c.req.valid('json');
      return c.json(await s.oidc.exchange(b.code, b.code_verifier), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/oidc/{name}/device', tags, security: [], summary: 'Start a device authorization (RFC 8628) for a machine without a browser',
      request: { params: Name }, responses: { 200: json(DeviceStart), ...errors(400, 404) },
    }),
    async (c) => c.json(await s.oidcDevice.start(c.req.valid('param').name), 200),
  );

  r.openapi(
    createRoute({
      method: 'post', path: '/auth/oidc/device/poll', tags, security: [], summary: 'Poll a device authorization: 202 while pending, tokens once approved',
      request: body(DevicePoll), responses: { 200: json(Session), 202: json(Pending, 'Not approved yet; poll again after `interval` seconds'), ...errors(400) },
    }),
    async (c) => {
      const res = await s.oidcDevice.poll(c.req.valid('json').device_id);
      if (res.status === 'pending') return c.json(res, 202);
      const { status: _status, ...session } = res;
      return c.json(session, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get', path: '/auth/oidc/{name}/logout', tags, security: [], summary: 'RP-initiated logout: redirects to the provider\'s end_session_endpoint (404 when it has none)',
      request: { params: Name }, responses: { 302: redirect('To the provider'), ...errors(404) },
    }),
    async (c) => {
      const name = c.req.valid('param').name;
      const url = await s.oidc.endSessionUrl(name);
      if (!url) return c.json({ type: 'about:blank', title: 'Not found', status: 404, detail: `Identity provider "${name}" offers no logout`, code: 'not_found' }, 404, { 'Content-Type': 'application/problem+json' });
      return c.redirect(url, 302);
    },
  );

  return r;
}
