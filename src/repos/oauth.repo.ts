// The authorization server's rows: registered clients (per installation), pending
// authorization requests and one-time codes (both stored by HMAC, consumed once). A request
// names a tenant only once someone signed in; codes always do, and are used by tenant.
import type { Database } from '../db/store/contract.js';

export interface OAuthClientRow {
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  software_id: string | null;
  software_version: string | null;
  created_at: number;
}

export interface OAuthRequestRow {
  handle_hmac: Buffer;
  browser_hmac: Buffer;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  resource: string;
  scope: string | null;
  oidc_verifier: string | null;
  tenant_id: string | null;
  user_id: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
}

export interface OAuthCodeRow {
  code_hmac: Buffer;
  tenant_id: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  family_id: string | null;
}

export class OAuthRepo {
  private readonly insertClient;
  private readonly findClient;
  private readonly insertRequest;
  private readonly findRequest;
  private readonly signInRequest;
  private readonly setVerifier;
  private readonly decideRequest;
  private readonly insertCode;
  private readonly findCode;
  private readonly useCode;
  private readonly codeFamily;
  private readonly purgeRequests;
  private readonly purgeCodes;

  constructor(db: Database) {
    this.insertClient = db.prepare(
      `INSERT INTO oauth_clients (client_id, client_name, client_uri, redirect_uris, software_id, software_version, created_at)
       VALUES (@client_id, @client_name, @client_uri, @redirect_uris, @software_id, @software_version, @created_at)`,
    );
    this.findClient = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?');
    this.insertRequest = db.prepare(
      `INSERT INTO oauth_requests (handle_hmac, browser_hmac, client_id, redirect_uri, state, code_challenge, resource, scope, created_at, expires_at)
       VALUES (@handle_hmac, @browser_hmac, @client_id, @redirect_uri, @state, @code_challenge, @resource, @scope, @created_at, @expires_at)`,
    );
    this.findRequest = db.prepare('SELECT * FROM oauth_requests WHERE handle_hmac = ?');
    this.signInRequest = db.prepare('UPDATE oauth_requests SET tenant_id = ?, user_id = ? WHERE handle_hmac = ? AND decided_at IS NULL');
    this.setVerifier = db.prepare('UPDATE oauth_requests SET oidc_verifier = ? WHERE handle_hmac = ? AND decided_at IS NULL');
    this.decideRequest = db.prepare('UPDATE oauth_requests SET decided_at = ? WHERE handle_hmac = ? AND decided_at IS NULL');
    this.insertCode = db.prepare(
      `INSERT INTO oauth_codes (code_hmac, tenant_id, user_id, client_id, redirect_uri, code_challenge, resource, expires_at)
       VALUES (@code_hmac, @tenant_id, @user_id, @client_id, @redirect_uri, @code_challenge, @resource, @expires_at)`,
    );
    this.findCode = db.prepare('SELECT * FROM oauth_codes WHERE code_hmac = ?');
    this.useCode = db.prepare('UPDATE oauth_codes SET used_at = ? WHERE tenant_id = ? AND code_hmac = ? AND used_at IS NULL');
    this.codeFamily = db.prepare('UPDATE oauth_codes SET family_id = ? WHERE tenant_id = ? AND code_hmac = ?');
    this.purgeRequests = db.prepare('DELETE FROM oauth_requests WHERE expires_at < ?');
    // Used codes are kept for a day so a replay is recognised (and its session revoked).
    this.purgeCodes = db.prepare('DELETE FROM oauth_codes WHERE expires_at < ?');
  }

  async addClient(row: OAuthClientRow): Promise<void> {
    await this.insertClient.run({ ...row, redirect_uris: JSON.stringify(row.redirect_uris) });
  }
  async client(clientId: string): Promise<OAuthClientRow | undefined> {
    const row = await this.findClient.get(clientId) as (Omit<OAuthClientRow, 'redirect_uris'> & { redirect_uris: string }) | undefined;
    return row && { ...row, redirect_uris: JSON.parse(row.redirect_uris) as string[] };
  }

  async addRequest(row: Omit<OAuthRequestRow, 'oidc_verifier' | 'tenant_id' | 'user_id' | 'decided_at'>): Promise<void> {
    await this.insertRequest.run(row);
  }
  async request(handleHmac: Buffer): Promise<OAuthRequestRow | undefined> {
    return await this.findRequest.get(handleHmac) as OAuthRequestRow | undefined;
  }
  async signIn(handleHmac: Buffer, tenantId: string, userId: string): Promise<boolean> {
    return (await this.signInRequest.run(tenantId, userId, handleHmac)).changes === 1;
  }
  async setOidcVerifier(handleHmac: Buffer, verifier: string): Promise<void> {
    await this.setVerifier.run(verifier, handleHmac);
  }
  /** True only for the one caller that decided it (approve or deny happens once). */
  async decide(handleHmac: Buffer, at: number): Promise<boolean> {
    return (await this.decideRequest.run(at, handleHmac)).changes === 1;
  }

  async addCode(row: Omit<OAuthCodeRow, 'used_at' | 'family_id'>): Promise<void> {
    await this.insertCode.run(row);
  }
  async code(codeHmac: Buffer): Promise<OAuthCodeRow | undefined> {
    return await this.findCode.get(codeHmac) as OAuthCodeRow | undefined;
  }
  /** True only for the one caller that redeemed it. */
  async useCodeOnce(tenantId: string, codeHmac: Buffer, at: number): Promise<boolean> {
    return (await this.useCode.run(at, tenantId, codeHmac)).changes === 1;
  }
  /** Remembers the session a code became, so a replay of the code can end it. */
  async setCodeFamily(tenantId: string, codeHmac: Buffer, familyId: string): Promise<void> {
    await this.codeFamily.run(familyId, tenantId, codeHmac);
  }

  async purge(now: number): Promise<void> {
    await this.purgeRequests.run(now);
    await this.purgeCodes.run(now - 24 * 3600 * 1000);
  }
}
