// Reads an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636, and a resource
// indicator, RFC 8707). An unknown client or redirect URI is shown to the user; every other
// mistake goes back to the client's redirect URI as error=..., with its state.
import type { OAuthClientRow } from '../../../repos/oauth.repo.js';
import type { OAuthClients } from './clients.service.js';
import { ConsentPageError } from './oauth-error.js';
import { sameResource } from './metadata.js';
import { matchRedirectUri } from './redirect-uris.js';

export interface AuthorizeParams {
  client: OAuthClientRow;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  scope: string | null;
}

export type AuthorizeCheck = { ok: true; params: AuthorizeParams } | { ok: false; redirect: string };

const NAMES = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'resource', 'scope'];

/** `redirect_uri?error=...&state=...&iss=...` (RFC 6749 §4.1.2.1, RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>, issuer: string): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuer })) if (v !== null) u.searchParams.set(k, v);
  return u.href;
}

export async function checkAuthorizeRequest(q: URLSearchParams, clients: OAuthClients, issuer: string, resource: string): Promise<AuthorizeCheck> {
  const one = (name: string) => q.get(name);
  const clientId = one('client_id');
  if (!clientId) throw new ConsentPageError('Unknown application', 'The request names no application (client_id is missing). Start again from your MCP client.');
  const client = await clients.get(clientId);
  if (!client) throw new ConsentPageError('Unknown application', 'This application is not registered with this Rhizome server. Remove the server from your MCP client and add it again so that it registers.');
  const presented = one('redirect_uri');
  const redirectUri = presented === null ? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined) : matchRedirectUri(client.redirect_uris, presented);
  if (!redirectUri || q.getAll('redirect_uri').length > 1) {
    throw new ConsentPageError('Wrong redirect address', 'The redirect_uri of this request is not one the application registered, so Rhizome will not send anything to it.');
  }
  const state = one('state');
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirect: redirectWith(redirectUri, { error, error_description: description, state: state && state.length <= 2000 ? state : null }, issuer),
  });

  const repeated = NAMES.find((n) => q.getAll(n).length > 1);
  if (repeated) return fail(repeated === 'resource' ? 'invalid_target' : 'invalid_request', `${repeated} is given more than once`);
  if (state !== null && (state.length === 0 || state.length > 2000)) return fail('invalid_request', 'state must be 1 to 2000 characters');
  const responseType = one('response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  const challenge = one('code_challenge');
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  const method = one('code_challenge_method') ?? 'plain';
  if (method !== 'S256') return fail('invalid_request', `code_challenge_method ${method} is not supported: use S256`);
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the verifier');
  const target = one('resource') ?? resource;
  if (!sameResource(target, resource)) return fail('invalid_target', `This server issues tokens only for ${resource}`);
  const scope = one('scope');
  if (scope !== null && scope.length > 1000) return fail('invalid_scope', 'scope is too long');
  return { ok: true, params: { client, redirectUri, state, codeChallenge: challenge, resource, scope } };
}
