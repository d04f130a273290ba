// The token endpoint (RFC 6749 §3.2) for public clients: authorization_code with the PKCE
// verifier (RFC 7636), and refresh_token with rotation and reuse detection (the same
// refresh-token families as every other Rhizome session). Failures are OAuth errors and
// change nothing, except a replayed code, which ends the session that code became.
import type { Clock } from '../../../clock.js';
import { AppError } from '../../../errors.js';
import type { OAuthRepo } from '../../../repos/oauth.repo.js';
import type { AuthService, TokenPair } from '../auth.service.js';
import { s256 } from '../oidc.service.js';
import { digestsEqual, hmac } from '../secrets.js';
import type { OAuthClients } from './clients.service.js';
import { sameResource } from './metadata.js';
import { OAuthError } from './oauth-error.js';
import { matchRedirectUri } from './redirect-uris.js';

export interface TokenDeps {
  repo: OAuthRepo;
  clients: OAuthClients;
  auth: AuthService;
  tokenHmac: Buffer;
  clock: Clock;
  resource: string;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const grantError = (description: string) => new OAuthError('invalid_grant', description);

export class OAuthTokens {
  constructor(private readonly d: TokenDeps) {}

  async grant(form: URLSearchParams): Promise<TokenPair> {
    for (const [name] of form) if (form.getAll(name).length > 1) throw new OAuthError('invalid_request', `${name} is given more than once`);
    const grantType = form.get('grant_type');
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    const clientId = form.get('client_id');
    if (!clientId) throw new OAuthError('invalid_client', 'client_id is required (public clients send it in the body)', 401);
    if (!await this.d.clients.get(clientId)) throw new OAuthError('invalid_client', 'Unknown client', 401);
    const resource = form.get('resource');
    if (resource !== null && !sameResource(resource, this.d.resource)) throw new OAuthError('invalid_target', `This server issues tokens only for ${this.d.resource}`);
    if (grantType === 'authorization_code') return this.code(form, clientId);
    if (grantType === 'refresh_token') return this.refresh(form, clientId);
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType.slice(0, 50)} is not supported (authorization_code, refresh_token)`);
  }

  private async code(form: URLSearchParams, clientId: string): Promise<TokenPair> {
    const code = form.get('code');
    const verifier = form.get('code_verifier');
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!VERIFIER.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]');
    const h = hmac(this.d.tokenHmac, code.slice(0, 200));
    const row = await this.d.repo.code(h);
    const now = this.d.clock.now();
    if (!row) throw grantError('Unknown authorization code');
    if (row.used_at !== null) {
      // RFC 6749 §4.1.2: a code presented twice may have been stolen; end what it gave.
      if (row.family_id) await this.d.auth.revokeSession(row.tenant_id, row.family_id);
      throw grantError('This authorization code was already used; the session it started has been revoked');
    }
    if (row.expires_at <= now) throw grantError('This authorization code has expired');
    if (row.client_id !== clientId) throw grantError('This authorization code was issued to another client');
    const presented = form.get('redirect_uri');
    const registered = (await this.d.clients.get(clientId))?.redirect_uris ?? [];
    if (presented === null || matchRedirectUri(registered, presented) === undefined || presented !== row.redirect_uri) {
      throw grantError('redirect_uri must be the one used in the authorization request');
    }
    if (!digestsEqual(Buffer.from(s256(verifier)), Buffer.from(row.code_challenge))) throw grantError('code_verifier does not match the code_challenge');
    if (!await this.d.repo.useCodeOnce(row.tenant_id, h, now)) throw grantError('This authorization code was already used');
    let session;
    try {
      session = await this.d.auth.startClientSession(row.tenant_id, row.user_id, clientId);
    } catch (e) {
      if (e instanceof AppError && e.status === 401) throw grantError('The user of this code no longer exists');
      throw e;
    }
    await this.d.repo.setCodeFamily(row.tenant_id, h, session.familyId);
    return session.tokens;
  }

  private async refresh(form: URLSearchParams, clientId: string): Promise<TokenPair> {
    const token = form.get('refresh_token');
    if (!token) throw new OAuthError('invalid_request', 'refresh_token is required');
    try {
      return await this.d.auth.refresh(token.slice(0, 500), clientId);
    } catch (e) {
      if (e instanceof AppError && e.status === 401) throw grantError(e.detail);
      throw e;
    }
  }

  /** RFC 7009: ends the session of a refresh token (unknown tokens: nothing to do). */
  async revoke(form: URLSearchParams): Promise<void> {
    const token = form.get('token');
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    await this.d.auth.logout(token.slice(0, 500));
  }
}
