// API keys, magic-link login, access tokens (JWT via hono/jwt) and refresh-token rotation
// with reuse detection (RFC 9700: presenting a rotated token revokes its whole family).
import { sign, verify } from 'hono/jwt';
import { isStorageError } from '../../db/storage-errors.js';

const isBusy = (e: unknown) => /^SQLITE_(BUSY|LOCKED|READONLY)/.test(String((e as { code?: unknown })?.code ?? ''));
import { hmac, digestsEqual, randomSecret, type Keys } from './secrets.js';
import { iso, type Clock } from '../../clock.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ApiKeysRepo } from '../../repos/api-keys.repo.js';
import type { TenantsRepo } from '../../repos/tenants.repo.js';
import type { TokensRepo } from '../../repos/tokens.repo.js';
import type { UsersRepo } from '../../repos/users.repo.js';
import type { Mailer } from '../../mail/mailer.js';
import { KeyCache } from './key-cache.js';

export const ACCESS_TTL_S = 900;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;
export const LAST_USED_RESOLUTION_MS = 60 * 1000;

export interface Principal {
  tenantId: string;
  kind: 'api_key' | 'user';
  id: string;
  /** The tenant's status as read with the credential (an API key's lookup reads it too). */
  tenantStatus?: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface AuthDeps {
  keys: Keys;
  clock: Clock;
  apiKeys: ApiKeysRepo;
  users: UsersRepo;
  tokens: TokensRepo;
  tenants: TenantsRepo;
  mailer: Mailer;
  publicUrl: string;
}

export class AuthService {
  /** Active keys read lately (key-cache.ts). */
  readonly keyCache: KeyCache;

  constructor(private readonly d: AuthDeps) {
    this.keyCache = new KeyCache();
  }

  /** Forgets what is held of a tenant's keys (its status changed, or it is gone). */
  forgetTenant(tenantId: string): void {
    this.keyCache.forgetTenant(tenantId);
  }

  // ------------------------------------------------------------ API keys
  async createApiKey(tenantId: string, name: string) {
    const id = newId('key');
    const secret = randomSecret();
    const created_at = iso(this.d.clock.now());
    await this.d.apiKeys.insert({ id, tenant_id: tenantId, name, secret_hmac: hmac(this.d.keys.apiKeyHmac, secret), created_at });
    return { id, name, key: `${id}.${secret}`, created_at };
  }

  async listApiKeys(tenantId: string) {
    return await this.d.apiKeys.list(tenantId);
  }

  async revokeApiKey(tenantId: string, id: string): Promise<void> {
    const revoked = await this.d.apiKeys.revoke(tenantId, id, iso(this.d.clock.now()));
    this.keyCache.forgetKey(id);
    if (!revoked) throw new NotFoundError('API key');
  }

  async authenticateApiKey(raw: string): Promise<Principal> {
    const dot = raw.indexOf('.');
    if (dot <= 0 || dot === raw.length - 1) throw new UnauthorizedError('Malformed API key: expected {key_id}.{secret}');
    const keyId = raw.slice(0, dot);
    let row = this.keyCache.get(keyId);
    if (!row) {
      row = await this.d.apiKeys.findActive(keyId);
      if (row) this.keyCache.set(row);
    }
    // Compute the digest even for unknown ids so timing does not tell which ids exist.
    const presented = hmac(this.d.keys.apiKeyHmac, raw.slice(dot + 1));
    if (!row || !digestsEqual(presented, row.secret_hmac)) throw new UnauthorizedError('Unknown or revoked API key');
    // last_used_at is kept to the minute: a write on every authenticated read is not worth it.
    const now = this.d.clock.now();
    if (!row.last_used_at || now - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      // Best effort: authenticating must never need a write (a full disk still serves reads).
      try {
        await this.d.apiKeys.touch(row.tenant_id, row.id, iso(now));
        row.last_used_at = iso(now);
      } catch (e) {
        if (!isStorageError(e) && !isBusy(e)) throw e;
      }
    }
    return { tenantId: row.tenant_id, kind: 'api_key', id: row.id, tenantStatus: row.tenant_status };
  }

  // ------------------------------------------------------------ users and magic links
  async addUser(email: string, tenantName: string) {
    const tenant = await this.d.tenants.findByName(tenantName);
    if (!tenant) throw new NotFoundError(`Tenant "${tenantName}"`);
    if (await this.d.users.findByEmail(email)) throw new ValidationError(`A user with email ${email} already exists`);
    const row = { id: newId('usr'), tenant_id: tenant.id, email, created_at: iso(this.d.clock.now()) };
    await this.d.users.insert(row);
    return row;
  }

  /** Always succeeds from the caller's view: no hint whether the email has an account. */
  async requestMagicLink(email: string): Promise<void> {
    await this.sendSignInLink(email, (token) => {
      const link = `${this.d.publicUrl}/#/login?token=${encodeURIComponent(token)}`;
      return {
        subject: 'Your Rhizome sign-in link',
        text: `Sign in to Rhizome: ${link}\nOr paste this token into \`rhizome login\`: ${token}\nThe link works once and expires in 15 minutes.`,
      };
    });
  }

  /**
   * Mails a one-time sign-in token to the user with this email, worded by `mail` (the
   * dashboard's link, or the authorization server's consent page). Silent for unknown emails.
   */
  async sendSignInLink(email: string, mail: (token: string) => { subject: string; text: string }): Promise<void> {
    const user = await this.d.users.findByEmail(email);
    if (!user) return;
    const token = randomSecret();
    await this.d.tokens.addMagicLink({
      token_hmac: hmac(this.d.keys.tokenHmac, token),
      tenant_id: user.tenant_id,
      user_id: user.id,
      expires_at: this.d.clock.now() + MAGIC_LINK_TTL_MS,
    });
    const m = mail(token);
    await this.d.mailer.send(user.email, m.subject, m.text);
  }

  /** Uses up a sign-in token (once) and says whose it was; 401 when invalid, expired or used. */
  async consumeSignInLink(token: string): Promise<{ tenantId: string; userId: string }> {
    const h = hmac(this.d.keys.tokenHmac, token);
    const row = await this.d.tokens.findMagicLink(h);
    const now = this.d.clock.now();
    if (!row || row.used_at !== null || row.expires_at <= now || !await this.d.tokens.consumeMagicLink(row.tenant_id, h, now)) {
      throw new UnauthorizedError('This sign-in link is invalid, expired or already used');
    }
    return { tenantId: row.tenant_id, userId: row.user_id };
  }

  async verifyMagicLink(token: string): Promise<TokenPair> {
    const { tenantId, userId } = await this.consumeSignInLink(token);
    return this.issue(tenantId, userId, newId('rt'), null);
  }

  /** The user's email (for the consent page), or undefined. */
  async userEmail(tenantId: string, userId: string): Promise<string | undefined> {
    return (await this.d.users.findById(tenantId, userId))?.email;
  }

  // ------------------------------------------------------------ bearer tokens
  /**
   * Rotates a refresh token. `clientId` (the OAuth token endpoint) must be the client the
   * session was issued to; a token of another client or of a Rhizome sign-in is refused
   * there without being used up.
   */
  async refresh(token: string, clientId?: string): Promise<TokenPair> {
    const row = await this.d.tokens.findRefreshByHmac(hmac(this.d.keys.tokenHmac, token));
    const now = this.d.clock.now();
    if (!row) throw new UnauthorizedError('Unknown refresh token');
    if (clientId !== undefined && row.client_id !== clientId) throw new UnauthorizedError('This refresh token was not issued to this client');
    // The family's revocation is checked at every refresh, not only on this row: a token
    // issued to the winner of a concurrent refresh can be written just after the losers
    // revoked the family, and must not refresh it back to life.
    if (row.used_at !== null || row.revoked_at !== null || (await this.d.tokens.familyRevoked(row.tenant_id, row.family_id))) {
      await this.d.tokens.revokeFamily(row.tenant_id, row.family_id, now);
      throw new UnauthorizedError('Refresh token reuse detected; the session has been revoked');
    }
    if (row.expires_at <= now) throw new UnauthorizedError('Refresh token expired');
    if (!await this.d.tokens.markRefreshUsed(row.tenant_id, row.id, now)) {
      // Lost a race with a concurrent refresh of the same token: that is reuse too.
      await this.d.tokens.revokeFamily(row.tenant_id, row.family_id, now);
      throw new UnauthorizedError('Refresh token reuse detected; the session has been revoked');
    }
    return this.issue(row.tenant_id, row.user_id, row.family_id, row.client_id);
  }

  /** Ends the session a refresh token belongs to (its whole family). Unknown tokens: nothing to do. */
  async logout(refreshToken: string): Promise<void> {
    const row = await this.d.tokens.findRefreshByHmac(hmac(this.d.keys.tokenHmac, refreshToken));
    if (row) await this.d.tokens.revokeFamily(row.tenant_id, row.family_id, this.d.clock.now());
  }

  async authenticateBearer(token: string): Promise<Principal> {
    let payload: Record<string, unknown>;
    try {
      // Expiry is checked below against the injected clock, not the wall clock.
      payload = (await verify(token, this.d.keys.jwtSecret, { alg: 'HS256', exp: false, iat: false, nbf: false })) as never;
    } catch {
      throw new UnauthorizedError('Invalid access token');
    }
    const exp = typeof payload.exp === 'number' ? payload.exp : 0;
    if (exp * 1000 <= this.d.clock.now()) throw new UnauthorizedError('Access token expired');
    const tenantId = payload.tid, userId = payload.sub, familyId = payload.fid;
    if (typeof tenantId !== 'string' || typeof userId !== 'string' || typeof familyId !== 'string' || !await this.d.users.findById(tenantId, userId)) {
      throw new UnauthorizedError('Invalid access token');
    }
    // Revocation is immediate: a revoked session family (logout, refresh-token reuse) ends its
    // access tokens on their next request, not when they expire.
    if (await this.d.tokens.familyRevoked(tenantId, familyId)) throw new UnauthorizedError('This session has been revoked');
    return { tenantId, kind: 'user', id: userId };
  }

  /**
   * A new session (a fresh refresh-token family) for a user some other proof already
   * established: identity-provider sign-in, or an authorization server's consent step.
   */
  async startSession(tenantId: string, userId: string): Promise<TokenPair> {
    if (!await this.d.users.findById(tenantId, userId)) throw new UnauthorizedError('Unknown user');
    return this.issue(tenantId, userId, newId('rt'), null);
  }

  /** startSession() for an OAuth client: its refresh tokens rotate only for that client. */
  async startClientSession(tenantId: string, userId: string, clientId: string): Promise<{ tokens: TokenPair; familyId: string }> {
    if (!await this.d.users.findById(tenantId, userId)) throw new UnauthorizedError('Unknown user');
    const familyId = newId('rt');
    return { tokens: await this.issue(tenantId, userId, familyId, clientId), familyId };
  }

  /** Ends one session family (e.g. the one a replayed authorization code produced). */
  async revokeSession(tenantId: string, familyId: string): Promise<void> {
    await this.d.tokens.revokeFamily(tenantId, familyId, this.d.clock.now());
  }

  private async issue(tenantId: string, userId: string, familyId: string, clientId: string | null): Promise<TokenPair> {
    const now = this.d.clock.now();
    // The tenant claim comes first: a proxy routes by the token's leading characters
    // (deploy/nginx/rhizome.conf), which are then the same for all of a tenant's tokens.
    const access_token = await sign(
      { tid: tenantId, sub: userId, fid: familyId, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + ACCESS_TTL_S },
      this.d.keys.jwtSecret,
      'HS256',
    );
    const refresh = randomSecret();
    await this.d.tokens.addRefresh({
      id: newId('rt'),
      tenant_id: tenantId,
      user_id: userId,
      family_id: familyId,
      token_hmac: hmac(this.d.keys.tokenHmac, refresh),
      created_at: now,
      expires_at: now + REFRESH_TTL_MS,
      client_id: clientId,
    });
    return { access_token, refresh_token: refresh, token_type: 'Bearer', expires_in: ACCESS_TTL_S };
  }
}
