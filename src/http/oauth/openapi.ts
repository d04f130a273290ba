// OpenAPI entries for the authorization server (mounted outside /api/v1, written by hand):
// its machine endpoints with their OAuth JSON shapes, and its pages as browser navigation.
import { z, type OpenAPIHono } from '@hono/zod-openapi';

type Registry = OpenAPIHono['openAPIRegistry'];

const OAuthErr = z.object({ error: z.string(), error_description: z.string() }).openapi('OAuthError');
const oauthError = (description: string) => ({ description, content: { 'application/json': { schema: OAuthErr } } });
const ok = (schema: z.ZodType, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const redirect = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' as const } } } });
const form = (schema: z.ZodType) => ({ body: { content: { 'application/x-www-form-urlencoded': { schema } }, required: true } });

const AsMetadata = z
  .object({
    issuer: z.string(), authorization_endpoint: z.string(), token_endpoint: z.string(), registration_endpoint: z.string(), revocation_endpoint: z.string(),
    response_types_supported: z.array(z.string()), grant_types_supported: z.array(z.string()), code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
  })
  .passthrough()
  .openapi('AuthorizationServerMetadata');
const ClientMetadata = z
  .object({
    redirect_uris: z.array(z.string()).min(1).max(10).openapi({ description: 'https; http on 127.0.0.1, [::1] or localhost; or an app\'s own scheme (not javascript:, data:, file:...)' }),
    client_name: z.string().max(100).optional(), client_uri: z.string().optional(),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(), response_types: z.array(z.literal('code')).optional(),
    token_endpoint_auth_method: z.literal('none').optional(), software_id: z.string().optional(), software_version: z.string().optional(),
  })
  .passthrough()
  .openapi('OAuthClientMetadata');
const Registered = z
  .object({ client_id: z.string(), client_id_issued_at: z.number().int(), client_name: z.string(), redirect_uris: z.array(z.string()), grant_types: z.array(z.string()), response_types: z.array(z.string()), token_endpoint_auth_method: z.literal('none') })
  .openapi('OAuthClientRegistered');
const TokenRequest = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token']), client_id: z.string(), code: z.string().optional(), code_verifier: z.string().optional(),
    redirect_uri: z.string().optional(), refresh_token: z.string().optional(), resource: z.string().optional(),
  })
  .openapi('OAuthTokenRequest');
const TokenResponse = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), refresh_token: z.string() }).openapi('OAuthTokenResponse');
const Handle = z.object({ request: z.string().openapi({ description: 'The pending request, as the page carries it' }) });

export function documentOAuthRoutes(registry: Registry): void {
  const tags = ['oauth'];
  const base = { tags, security: [] };
  for (const [path, operationId] of [['/.well-known/oauth-authorization-server', 'getAuthorizationServerMetadata'], ['/.well-known/oauth-authorization-server/mcp', 'getAuthorizationServerMetadataMcp']] as const) {
    registry.registerPath({ ...base, method: 'get', path, operationId, summary: 'Authorization server metadata (RFC 8414)', responses: { 200: ok(AsMetadata), 404: oauthError('not found') } });
  }
  registry.registerPath({
    ...base, method: 'post', path: '/oauth/register', operationId: 'postOAuthRegister', summary: 'Dynamic client registration (RFC 7591), public clients only; rate-limited per address',
    request: { body: { content: { 'application/json': { schema: ClientMetadata } }, required: true } },
    responses: { 201: ok(Registered, 'Registered'), 400: oauthError('invalid_redirect_uri or invalid_client_metadata'), 415: oauthError('invalid_client_metadata: the body is not application/json'), 429: oauthError('slow_down (Retry-After)') },
  });
  registry.registerPath({
    ...base, method: 'post', path: '/oauth/token', operationId: 'postOAuthToken', summary: 'Token endpoint: authorization_code (with the PKCE verifier) or refresh_token (rotated; reuse ends the session)',
    request: form(TokenRequest),
    responses: { 200: ok(TokenResponse), 400: oauthError('invalid_request, invalid_grant, invalid_target, unsupported_grant_type'), 401: oauthError('invalid_client'), 429: oauthError('slow_down') },
  });
  registry.registerPath({
    ...base, method: 'post', path: '/oauth/revoke', operationId: 'postOAuthRevoke', summary: 'Token revocation (RFC 7009): ends a refresh token\'s session',
    request: form(z.object({ token: z.string(), token_type_hint: z.string().optional() })), responses: { 200: ok(z.object({})), 400: oauthError('invalid_request') },
  });

  const page = (method: 'get' | 'post', path: string, operationId: string, summary: string, responses: Record<number, object>, request?: object) =>
    registry.registerPath({ ...base, method, path, operationId, summary, ...(request ? { request } : {}), responses: { ...responses, 400: html('Error page'), 403: html('Another browser, or a cross-site post') } as never });
  const Query = (shape: Record<string, z.ZodType>) => ({ query: z.object(shape) });
  page('get', '/oauth/authorize', 'getOAuthAuthorize', 'Authorization endpoint: checks the request (client, exact redirect URI, response_type=code, S256 PKCE, resource) and shows the sign-in page',
    { 200: html('Sign-in page'), 302: redirect('Back to the client with error=... when the request is wrong'), 429: html('Too many pages opened from this address') },
    Query({ client_id: z.string(), redirect_uri: z.string(), response_type: z.literal('code'), code_challenge: z.string(), code_challenge_method: z.literal('S256'), state: z.string().optional(), resource: z.string().optional(), scope: z.string().optional() }));
  page('post', '/oauth/authorize/email', 'postOAuthAuthorizeEmail', 'Emails a one-time sign-in link for the request (same page whether or not the address has an account)',
    { 200: html('Check your email') }, form(Handle.extend({ email: z.string() })));
  page('get', '/oauth/authorize/signin', 'getOAuthAuthorizeSignin', 'The emailed link: signs the request in, then to the consent page',
    { 303: redirect('To the consent page'), 401: html('Invalid, expired or used link') }, Query({ request: z.string(), token: z.string() }));
  page('post', '/oauth/authorize/signin', 'postOAuthAuthorizeSignin', 'The emailed code, pasted: signs the request in, then to the consent page',
    { 303: redirect('To the consent page'), 401: html('Invalid, expired or used code') }, form(Handle.extend({ token: z.string() })));
  page('get', '/oauth/authorize/consent', 'getOAuthAuthorizeConsent', 'Which application asks, as whom: approve or deny', { 200: html('Consent page') }, Query({ request: z.string() }));
  page('post', '/oauth/authorize/decision', 'postOAuthAuthorizeDecision', 'Approve (a one-time code, 60 s) or deny (error=access_denied); back to the client',
    { 303: redirect('To the client\'s redirect URI'), 401: html('Not signed in') }, form(Handle.extend({ decision: z.enum(['approve', 'deny']) })));
  page('get', '/oauth/authorize/provider/{name}', 'getOAuthAuthorizeProvider', 'Sign in for the request with a configured identity provider',
    { 302: redirect('To the identity provider'), 404: html('Unknown provider') },
    { params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' } }) }), query: z.object({ request: z.string() }) });
  page('get', '/oauth/authorize/provider-return', 'getOAuthAuthorizeProviderReturn', 'The identity provider sign-in comes back here with a one-time hand-off code',
    { 303: redirect('To the consent page'), 401: html('Sign-in refused') }, Query({ state: z.string(), oidc_code: z.string().optional(), oidc_error: z.string().optional(), provider: z.string().optional() }));
}
