// The authorization endpoint's steps: a checked request becomes a pending request bound to
// the browser that made it; the person signs in (a one-time emailed link, or an identity
// provider through IdentitySignIn); then approves or denies. Approval makes a one-time
// code, valid 60 s, bound to the client, redirect URI, PKCE challenge, resource and user.
import type { Clock } from '../../../clock.js';
import { AppError } from '../../../errors.js';
import type { Logger } from '../../../logger.js';
import type { OAuthRepo, OAuthRequestRow } from '../../../repos/oauth.repo.js';
import type { AuthService } from '../auth.service.js';
import type { OidcService } from '../oidc.service.js';
import { s256 } from '../oidc.service.js';
import { digestsEqual, hmac, randomSecret } from '../secrets.js';
import { checkAuthorizeRequest, redirectWith, type AuthorizeCheck, type AuthorizeParams } from './authorize-request.js';
import type { OAuthClients } from './clients.service.js';
import { issuerOf, mcpResourceOf, OAUTH_PATHS } from './metadata.js';
import { ConsentPageError } from './oauth-error.js';

export const REQUEST_TTL_MS = 15 * 60 * 1000;
export const CODE_TTL_MS = 60 * 1000;

export interface ConsentView {
  handle: string;
  clientName: string;
  clientUri: string | null;
  redirectUri: string;
  /** Who signed in, once someone did. */
  email: string | undefined;
}

export interface AuthorizationDeps {
  repo: OAuthRepo;
  clients: OAuthClients;
  auth: AuthService;
  oidc: Pick<OidcService, 'startForConsent' | 'redeem'>;
  tokenHmac: Buffer;
  clock: Clock;
  log: Logger;
  publicUrl: string;
}

const EXPIRED = 'This sign-in request is unknown, expired or already finished. Start connecting again from your MCP client.';

export class AuthorizationService {
  readonly issuer: string;
  readonly resource: string;

  constructor(private readonly d: AuthorizationDeps) {
    this.issuer = issuerOf(d.publicUrl);
    this.resource = mcpResourceOf(d.publicUrl);
  }

  async check(query: URLSearchParams): Promise<AuthorizeCheck> {
    return await checkAuthorizeRequest(query, this.d.clients, this.issuer, this.resource);
  }

  /** Records the request for this browser; returns the handle the pages carry. */
  async begin(p: AuthorizeParams, browser: string): Promise<string> {
    const now = this.d.clock.now();
    await this.d.repo.purge(now);
    const handle = randomSecret();
    await this.d.repo.addRequest({
      handle_hmac: this.h(handle),
      browser_hmac: this.h(browser),
      client_id: p.client.client_id,
      redirect_uri: p.redirectUri,
      state: p.state,
      code_challenge: p.codeChallenge,
      resource: p.resource,
      scope: p.scope,
      created_at: now,
      expires_at: now + REQUEST_TTL_MS,
    });
    return handle;
  }

  async view(handle: string, browser: string): Promise<ConsentView> {
    const row = await this.load(handle, browser);
    const client = await this.d.clients.get(row.client_id);
    if (!client) throw new ConsentPageError('Request expired', EXPIRED);
    const email = row.tenant_id && row.user_id ? await this.d.auth.userEmail(row.tenant_id, row.user_id) : undefined;
    return { handle, clientName: client.client_name, clientUri: client.client_uri, redirectUri: row.redirect_uri, email };
  }

  /** Mails a sign-in link that comes back to this request (nothing is sent to unknown emails). */
  async emailLink(handle: string, browser: string, email: string): Promise<void> {
    const row = await this.load(handle, browser);
    const name = (await this.d.clients.get(row.client_id))?.client_name ?? 'An application';
    await this.d.auth.sendSignInLink(email, (token) => {
      const link = `${this.issuer}${OAUTH_PATHS.authorize}/signin?${new URLSearchParams({ request: handle, token })}`;
      return {
        subject: `Connect ${name} to Rhizome`,
        text: `${name} asks to use your Rhizome knowledge graph.\nSign in to review the request: ${link}\nOr paste this code on the sign-in page: ${token}\nThe link works once, in the browser where you started, and expires in 15 minutes. If you did not just try to connect an application, ignore this email.`,
      };
    });
  }

  /** The emailed token (once) signs this request in. */
  async signInWithToken(handle: string, browser: string, token: string): Promise<void> {
    await this.load(handle, browser); // before the token is used up: a wrong browser must not burn it
    let who;
    try {
      who = await this.d.auth.consumeSignInLink(token);
    } catch (e) {
      if (e instanceof AppError && e.status === 401) throw new ConsentPageError('Sign-in failed', `${e.detail}. Ask for a new link below.`, 401);
      throw e;
    }
    if (!await this.d.repo.signIn(this.h(handle), who.tenantId, who.userId)) throw new ConsentPageError('Request expired', EXPIRED);
  }

  /** The identity provider's authorization URL; its answer comes back to provider-return. */
  async startProvider(handle: string, browser: string, provider: string): Promise<string> {
    await this.load(handle, browser);
    const verifier = randomSecret();
    await this.d.repo.setOidcVerifier(this.h(handle), verifier);
    return this.d.oidc.startForConsent(provider, `${this.issuer}${OAUTH_PATHS.authorize}/provider-return`, handle, s256(verifier));
  }

  /** The identity provider's hand-off code (once) signs this request in. */
  async finishProvider(handle: string, browser: string, code: string): Promise<void> {
    const row = await this.load(handle, browser);
    if (!row.oidc_verifier) throw new ConsentPageError('Sign-in failed', 'This request did not start a sign-in with an identity provider.');
    let who;
    try {
      who = await this.d.oidc.redeem(code, row.oidc_verifier);
    } catch (e) {
      if (e instanceof AppError && e.status === 401) throw new ConsentPageError('Sign-in failed', e.detail, 401);
      throw e;
    }
    if (!await this.d.repo.signIn(this.h(handle), who.tenantId, who.userId)) throw new ConsentPageError('Request expired', EXPIRED);
  }

  /** Approve or deny (once): the URL to send the browser back to the client with. */
  async decide(handle: string, browser: string, approve: boolean): Promise<string> {
    const row = await this.load(handle, browser);
    if (!row.tenant_id || !row.user_id) throw new ConsentPageError('Not signed in', 'Sign in before approving or denying this request.', 401);
    const now = this.d.clock.now();
    if (!await this.d.repo.decide(this.h(handle), now)) throw new ConsentPageError('Request expired', EXPIRED);
    const client = (await this.d.clients.get(row.client_id))?.client_name ?? row.client_id;
    this.d.log.info(`${await this.d.auth.userEmail(row.tenant_id, row.user_id) ?? row.user_id} ${approve ? 'approved' : 'denied'} access for the application "${client}" (${row.client_id})`);
    if (!approve) return redirectWith(row.redirect_uri, { error: 'access_denied', error_description: 'The user denied the request', state: row.state }, this.issuer);
    const code = randomSecret();
    await this.d.repo.addCode({
      code_hmac: this.h(code),
      tenant_id: row.tenant_id,
      user_id: row.user_id,
      client_id: row.client_id,
      redirect_uri: row.redirect_uri,
      code_challenge: row.code_challenge,
      resource: row.resource,
      expires_at: now + CODE_TTL_MS,
    });
    return redirectWith(row.redirect_uri, { code, state: row.state }, this.issuer);
  }

  private async load(handle: string, browser: string): Promise<OAuthRequestRow> {
    const row = handle.length <= 100 ? await this.d.repo.request(this.h(handle)) : undefined;
    if (!row || row.expires_at <= this.d.clock.now() || row.decided_at !== null) throw new ConsentPageError('Request expired', EXPIRED);
    if (!browser || !digestsEqual(this.h(browser), row.browser_hmac)) {
      throw new ConsentPageError('Wrong browser', 'Open this link in the browser where you started connecting the application (or paste the code from the email there).', 403);
    }
    return row;
  }

  private h(value: string): Buffer {
    return hmac(this.d.tokenHmac, value);
  }
}
