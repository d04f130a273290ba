// Magic-link tokens and refresh tokens, stored only as HMACs.
import type { Database } from '../db/store/contract.js';

export interface MagicLinkRow {
  token_hmac: Buffer;
  tenant_id: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
}

export interface RefreshTokenRow {
  id: string;
  tenant_id: string;
  user_id: string;
  family_id: string;
  token_hmac: Buffer;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  /** The OAuth client the session was issued to (authorization server); null for Rhizome's own sign-ins. */
  client_id: string | null;
}

export class TokensRepo {
  private readonly insertLink;
  private readonly findLink;
  private readonly useLink;
  private readonly insertRefresh;
  private readonly findRefresh;
  private readonly useRefresh;
  private readonly revokeFamilyStmt;
  private readonly familyRevokedStmt;

  constructor(db: Database) {
    this.insertLink = db.prepare(
      'INSERT INTO magic_links (token_hmac, tenant_id, user_id, expires_at) VALUES (@token_hmac, @tenant_id, @user_id, @expires_at)',
    );
    this.findLink = db.prepare('SELECT * FROM magic_links WHERE token_hmac = ?');
    this.useLink = db.prepare('UPDATE magic_links SET used_at = ? WHERE tenant_id = ? AND token_hmac = ? AND used_at IS NULL');
    this.insertRefresh = db.prepare(
      `INSERT INTO refresh_tokens (id, tenant_id, user_id, family_id, token_hmac, created_at, expires_at, client_id)
       VALUES (@id, @tenant_id, @user_id, @family_id, @token_hmac, @created_at, @expires_at, @client_id)`,
    );
    this.findRefresh = db.prepare('SELECT * FROM refresh_tokens WHERE token_hmac = ?');
    this.useRefresh = db.prepare('UPDATE refresh_tokens SET used_at = ? WHERE tenant_id = ? AND id = ? AND used_at IS NULL AND revoked_at IS NULL');
    this.revokeFamilyStmt = db.prepare(
      'UPDATE refresh_tokens SET revoked_at = ? WHERE tenant_id = ? AND family_id = ? AND revoked_at IS NULL',
    );
    // Served by the partial index refresh_tokens_revoked_family (migration 2).
    this.familyRevokedStmt = db
      .prepare('SELECT 1 FROM refresh_tokens INDEXED BY refresh_tokens_revoked_family WHERE tenant_id = ? AND family_id = ? AND revoked_at IS NOT NULL LIMIT 1')
      .pluck();
  }

  async addMagicLink(row: Omit<MagicLinkRow, 'used_at'>): Promise<void> {
    await this.insertLink.run(row);
  }
  async findMagicLink(hmac: Buffer): Promise<MagicLinkRow | undefined> {
    return await this.findLink.get(hmac) as MagicLinkRow | undefined;
  }
  /** True only for the one caller that consumed it. */
  async consumeMagicLink(tenantId: string, hmac: Buffer, at: number): Promise<boolean> {
    return (await this.useLink.run(at, tenantId, hmac)).changes === 1;
  }
  async addRefresh(row: Omit<RefreshTokenRow, 'used_at' | 'revoked_at'>): Promise<void> {
    await this.insertRefresh.run(row);
  }
  async findRefreshByHmac(hmac: Buffer): Promise<RefreshTokenRow | undefined> {
    return await this.findRefresh.get(hmac) as RefreshTokenRow | undefined;
  }
  async markRefreshUsed(tenantId: string, id: string, at: number): Promise<boolean> {
    return (await this.useRefresh.run(at, tenantId, id)).changes === 1;
  }
  async revokeFamily(tenantId: string, familyId: string, at: number): Promise<void> {
    await this.revokeFamilyStmt.run(at, tenantId, familyId);
  }
  async familyRevoked(tenantId: string, familyId: string): Promise<boolean> {
    return await this.familyRevokedStmt.get(tenantId, familyId) !== undefined;
  }
}
