// Sign-in with an identity provider: authorization code flow with PKCE, state and nonce
// (openid-client validates the ID token: JWKS signature, issuer, audience, expiry, nonce).
// The callback never hands out tokens in a URL: it redirects the dashboard (in the
// fragment) or the CLI's loopback listener with a one-time hand-off code, which is then
// exchanged by POST for Rhizome's own access and refresh tokens.
import { createHash } from 'node:crypto';
import type * as oidc from 'openid-client';
import type { Clock } from '../../clock.js';
import { UnauthorizedError, ValidationError } from '../../errors.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { OidcRepo } from '../../repos/oidc.repo.js';
import type { AuthService, TokenPair } from './auth.service.js';
import type { IdentitySignIn, VerifiedIdentity } from './identity-sign-in.js';
import { isLoopbackUrl, type OidcProviders } from './oidc.providers.js';
import { digestsEqual, hmac, randomSecret } from './secrets.js';

export const FLOW_TTL_MS = 10 * 60 * 1000;
export const HANDOFF_TTL_MS = 2 * 60 * 1000;
const REFUSED = 'The identity provider\'s answer could not be verified; please try signing in again';

export interface StartRequest {
  client: 'web' | 'cli';
  /** web: the dashboard route to land on afterwards. */
  returnTo?: string;
  /** cli: its loopback listener, http://127.0.0.1:{port}/{path}. */
  redirectUri?: string;
  /** cli: its own state, echoed back to the listener. */
  state?: string;
  /** S256 challenge; the hand-off exchange must present the verifier (required for cli). */
  codeChallenge?: string;
}

export interface OidcDeps {
  providers: OidcProviders;
  repo: OidcRepo;
  tokenHmac: Buffer;
  clock: Clock;
  log: Logger;
  signIn: IdentitySignIn;
  auth: AuthService;
  publicUrl: string;
}

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export class OidcService {
  constructor(private readonly d: OidcDeps) {}

  get providers() {
    return this.d.providers;
  }

  callbackUrl(name: string): string {
    return `${this.d.publicUrl.replace(/\/+$/, '')}/api/v1/auth/oidc/${name}/callback`;
  }

  /** Records the flow and returns the provider's authorization URL to redirect to. */
  async start(name: string, r: StartRequest): Promise<string> {
    this.d.providers.get(name);
    let returnTo = '/';
    if (r.client === 'cli') {
      let u: URL | undefined;
      try {
        u = r.redirectUri ? new URL(r.redirectUri) : undefined;
      } catch {
        u = undefined;
      }
      // RFC 8252 §7.3: a loopback IP literal, any port; nothing else may receive a hand-off code.
      if (u?.protocol !== 'http:' || !isLoopbackUrl(u) || u.hostname === 'localhost' || u.username || u.password || u.hash) {
        throw new ValidationError('redirect_uri must be a loopback address such as http://127.0.0.1:PORT/callback', [{ path: 'redirect_uri', message: 'not a loopback URL' }]);
      }
      if (!r.codeChallenge) throw new ValidationError('code_challenge is required for the CLI', [{ path: 'code_challenge', message: 'required' }]);
      if (!r.state) throw new ValidationError('state is required for the CLI', [{ path: 'state', message: 'required' }]);
      returnTo = u.href;
    } else if (r.returnTo) {
      if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(r.returnTo)) throw new ValidationError('return_to must be a dashboard path such as /search', [{ path: 'return_to', message: 'not a local path' }]);
      returnTo = r.returnTo;
    }
    return this.begin(name, r.client, returnTo, r.state ?? null, r.codeChallenge ?? null);
  }

  /**
   * For Rhizome's own authorization server: the answer comes back to `returnUrl` (one of
   * this server's pages) with a hand-off code and `state`, the way a CLI's loopback
   * listener gets it (so the flow is recorded with the 'cli' kind: "redirect to this URL").
   */
  startForConsent(name: string, returnUrl: string, state: string, codeChallenge: string): Promise<string> {
    this.d.providers.get(name);
    return this.begin(name, 'cli', returnUrl, state, codeChallenge);
  }

  private async begin(name: string, kind: 'web' | 'cli', returnTo: string, clientState: string | null, challenge: string | null): Promise<string> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const p = this.d.providers.get(name);
    const cfg = await this.d.providers.config(name);
    const now = this.d.clock.now();
    await this.d.repo.purge(now);
    const state = lib.randomState();
    const nonce = lib.randomNonce();
    const verifier = lib.randomPKCECodeVerifier();
    await this.d.repo.addFlow({
      id: randomUUID(),
      handle_hmac: hmac(this.d.tokenHmac, state),
      provider: name,
      kind,
      nonce,
      code_verifier: verifier,
      device_code: null,
      return_to: returnTo,
      client_state: clientState,
      handoff_challenge: challenge,
      created_at: now,
      expires_at: now + FLOW_TTL_MS,
    });
    return lib
      .buildAuthorizationUrl(cfg, {
        redirect_uri: this.callbackUrl(name),
        scope: p.scopes,
        state,
        nonce,
        code_challenge: await lib.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /**
   * The provider's redirect. An unknown, expired or already-used state is a 400 (we cannot
   * know whom to send back to); any later failure redirects to the client with a message.
   */
  async callback(name: string, query: URLSearchParams): Promise<string> {
    this.d.providers.get(name);
    const state = query.get('state');
    if (!state) throw new ValidationError('The sign-in answer has no state', [{ path: 'state', message: 'required' }]);
    const now = this.d.clock.now();
    const flow = await this.d.repo.findFlowByHandle(hmac(this.d.tokenHmac, state));
    if (!flow || flow.provider !== name || flow.kind === 'device' || flow.expires_at <= now || !await this.d.repo.consumeFlow(flow.id, now)) {
      throw new ValidationError('This sign-in attempt is unknown, expired or already finished; start again from the sign-in page');
    }
    const back = (params: Record<string, string>) => {
      if (flow.kind === 'cli') {
        const u = new URL(flow.return_to);
        for (const [k, v] of Object.entries({ ...params, state: flow.client_state ?? '' })) u.searchParams.set(k, v);
        return u.href;
      }
      const q = new URLSearchParams({ ...params, ...(flow.return_to !== '/' ? { return_to: flow.return_to } : {}) });
      return `${this.d.publicUrl.replace(/\/+$/, '')}/#/login?${q}`;
    };
    try {
      if (query.get('error')) {
        this.d.log.info(`sign-in through ${name} refused by the provider: ${JSON.stringify((query.get('error_description') || query.get('error') || '').slice(0, 300))}`);
        throw new UnauthorizedError(`The identity provider refused the sign-in (${query.get('error_description') || query.get('error')})`);
      }
      const identity = await this.verifyCodeResponse(name, query, state, flow.nonce ?? '', flow.code_verifier ?? '');
      const user = await this.d.signIn.resolve(identity);
      const code = randomSecret();
      await this.d.repo.addHandoff({
        code_hmac: hmac(this.d.tokenHmac, code),
        tenant_id: user.tenantId,
        user_id: user.userId,
        provider: name,
        challenge: flow.handoff_challenge,
        expires_at: now + HANDOFF_TTL_MS,
      });
      return back({ oidc_code: code, provider: name });
    } catch (e) {
      const message = e instanceof UnauthorizedError ? e.detail : REFUSED;
      return back({ oidc_error: message });
    }
  }

  private async verifyCodeResponse(name: string, query: URLSearchParams, state: string, nonce: string, verifier: string): Promise<VerifiedIdentity> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const cfg = await this.d.providers.config(name);
    const current = new URL(this.callbackUrl(name));
    for (const [k, v] of query) current.searchParams.append(k, v);
    let tokens;
    try {
      tokens = await lib.authorizationCodeGrant(cfg, current, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    } catch (e) {
      this.d.log.info(`sign-in through ${name} refused: ${e instanceof Error ? `${e.message}${e.cause ? ` (${JSON.stringify(e.cause).slice(0, 300)})` : ''}` : String(e)}`);
      throw new UnauthorizedError(REFUSED);
    }
    return this.identityFrom(name, cfg, tokens);
  }

  /** ID-token claims, completed from the UserInfo endpoint when they lack the email. */
  async identityFrom(name: string, cfg: oidc.Configuration, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): Promise<VerifiedIdentity> {
    const lib = await import('openid-client'); // loaded on first sign-in, not at start
    const claims = tokens.claims();
    if (!claims) throw new UnauthorizedError(REFUSED);
    let email = claims.email, verified = claims.email_verified;
    if (typeof email !== 'string' || verified === undefined) {
      try {
        const info = await lib.fetchUserInfo(cfg, tokens.access_token, claims.sub);
        email = typeof email === 'string' ? email : info.email;
        // The verification flag must describe the email we use.
        if (info.email === email) verified = info.email_verified;
      } catch (e) {
        this.d.log.info(`UserInfo of ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const p = this.d.providers.get(name);
    return { source: name, subject: claims.sub, email: typeof email === 'string' ? email : undefined, emailVerified: verified === true, allowedDomains: p.allowedDomains };
  }

  /** One-time hand-off code → Rhizome tokens; the verifier must match the flow's challenge. */
  async exchange(code: string, verifier: string | undefined): Promise<TokenPair & { provider: string }> {
    const row = await this.redeem(code, verifier);
    return { ...(await this.d.auth.startSession(row.tenantId, row.userId)), provider: row.provider };
  }

  /** Uses up a hand-off code (once) and says who signed in; 401 when invalid. */
  async redeem(code: string, verifier: string | undefined): Promise<{ tenantId: string; userId: string; provider: string }> {
    const h = hmac(this.d.tokenHmac, code);
    const row = await this.d.repo.findHandoffByCode(h);
    const now = this.d.clock.now();
    const invalid = () => new UnauthorizedError('This sign-in code is invalid, expired or already used');
    // Consumed before the verifier is checked: a wrong guess burns the code.
    if (!row || row.used_at !== null || row.expires_at <= now || !await this.d.repo.consumeHandoff(row.tenant_id, h, now)) throw invalid();
    if (row.challenge !== null && (!verifier || !digestsEqual(Buffer.from(s256(verifier)), Buffer.from(row.challenge)))) throw invalid();
    return { tenantId: row.tenant_id, userId: row.user_id, provider: row.provider };
  }

  /** RP-initiated logout at the provider, when it offers it (else null). */
  async endSessionUrl(name: string): Promise<string | null> {
    const lib = await import('openid-client');
    const cfg = await this.d.providers.config(name);
    if (!cfg.serverMetadata().end_session_endpoint) return null;
    return lib
      .buildEndSessionUrl(cfg, { client_id: this.d.providers.get(name).clientId, post_logout_redirect_uri: `${this.d.publicUrl.replace(/\/+$/, '')}/` })
      .toString();
  }
}
