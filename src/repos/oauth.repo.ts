// The authorization server's rows: registered clients (per installation), pending
// authorization requests and one-time codes (both stored by HMAC, consumed once). A request
// names a tenant only once someone signed in; codes always do, and are used by tenant.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
  constructor(private readonly db: Database) {}

  async addClient(row: OAuthClientRow): Promise<void> {
    await this.db.run(
      sql`INSERT INTO oauth_clients (client_id, client_name, client_uri, redirect_uris, software_id, software_version, created_at)
          VALUES (${row.client_id}, ${row.client_name}, ${row.client_uri}, ${JSON.stringify(row.redirect_uris)}, ${row.software_id}, ${row.software_version}, ${row.created_at})`,
    );
  }
  async client(clientId: string): Promise<OAuthClientRow | undefined> {
    const row = await this.db.one(
      sql<Omit<OAuthClientRow, 'redirect_uris'> & { redirect_uris: string }>`SELECT * FROM oauth_clients WHERE client_id = ${clientId}`,
    );
    return row && { ...row, redirect_uris: JSON.parse(row.redirect_uris) as string[] };
  }

  async addRequest(row: Omit<OAuthRequestRow, 'oidc_verifier' | 'tenant_id' | 'user_id' | 'decided_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO oauth_requests (handle_hmac, browser_hmac, client_id, redirect_uri, state, code_challenge, resource, scope, created_at, expires_at)
          VALUES (${row.handle_hmac}, ${row.browser_hmac}, ${row.client_id}, ${row.redirect_uri}, ${row.state}, ${row.code_challenge}, ${row.resource}, ${row.scope},
            ${row.created_at}, ${row.expires_at})`,
    );
  }
  async request(handleHmac: Buffer): Promise<OAuthRequestRow | undefined> {
    return await this.db.one(sql<OAuthRequestRow>`SELECT * FROM oauth_requests WHERE handle_hmac = ${handleHmac}`);
  }
  async signIn(handleHmac: Buffer, tenantId: string, userId: string): Promise<boolean> {
    return (
      (await this.db.run(sql`UPDATE oauth_requests SET tenant_id = ${tenantId}, user_id = ${userId} WHERE handle_hmac = ${handleHmac} AND decided_at IS NULL`))
        .changes === 1
    );
  }
  async setOidcVerifier(handleHmac: Buffer, verifier: string): Promise<void> {
    await this.db.run(sql`UPDATE oauth_requests SET oidc_verifier = ${verifier} WHERE handle_hmac = ${handleHmac} AND decided_at IS NULL`);
  }
  /** True only for the one caller that decided it (approve or deny happens once). */
  async decide(handleHmac: Buffer, at: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE oauth_requests SET decided_at = ${at} WHERE handle_hmac = ${handleHmac} AND decided_at IS NULL`)).changes === 1;
  }

  async addCode(row: Omit<OAuthCodeRow, 'used_at' | 'family_id'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO oauth_codes (code_hmac, tenant_id, user_id, client_id, redirect_uri, code_challenge, resource, expires_at)
          VALUES (${row.code_hmac}, ${row.tenant_id}, ${row.user_id}, ${row.client_id}, ${row.redirect_uri}, ${row.code_challenge}, ${row.resource}, ${row.expires_at})`,
    );
  }
  async code(codeHmac: Buffer): Promise<OAuthCodeRow | undefined> {
    return await this.db.one(sql<OAuthCodeRow>`SELECT * FROM oauth_codes WHERE code_hmac = ${codeHmac}`);
  }
  /** True only for the one caller that redeemed it. */
  async useCodeOnce(tenantId: string, codeHmac: Buffer, at: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE oauth_codes SET used_at = ${at} WHERE tenant_id = ${tenantId} AND code_hmac = ${codeHmac} AND used_at IS NULL`)).changes === 1;
  }
  /** Remembers the session a code became, so a replay of the code can end it. */
  async setCodeFamily(tenantId: string, codeHmac: Buffer, familyId: string): Promise<void> {
    await this.db.run(sql`UPDATE oauth_codes SET family_id = ${familyId} WHERE tenant_id = ${tenantId} AND code_hmac = ${codeHmac}`);
  }

  async purge(now: number): Promise<void> {
    await this.db.run(sql`DELETE FROM oauth_requests WHERE expires_at < ${now}`);
    // Used codes are kept for a day so a replay is recognised (and its session revoked).
    await this.db.run(sql`DELETE FROM oauth_codes WHERE expires_at < ${now - 24 * 3600 * 1000}`);
  }
}
