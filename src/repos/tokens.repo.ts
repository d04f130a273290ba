// Magic-link tokens and refresh tokens, stored only as HMACs.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
  constructor(private readonly db: Database) {}

  async addMagicLink(row: Omit<MagicLinkRow, 'used_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO magic_links (token_hmac, tenant_id, user_id, expires_at) VALUES (${row.token_hmac}, ${row.tenant_id}, ${row.user_id}, ${row.expires_at})`,
    );
  }
  async findMagicLink(hmac: Buffer): Promise<MagicLinkRow | undefined> {
    return await this.db.one(sql<MagicLinkRow>`SELECT * FROM magic_links WHERE token_hmac = ${hmac}`);
  }
  /** True only for the one caller that consumed it. */
  async consumeMagicLink(tenantId: string, hmac: Buffer, at: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE magic_links SET used_at = ${at} WHERE tenant_id = ${tenantId} AND token_hmac = ${hmac} AND used_at IS NULL`)).changes === 1;
  }
  async addRefresh(row: Omit<RefreshTokenRow, 'used_at' | 'revoked_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO refresh_tokens (id, tenant_id, user_id, family_id, token_hmac, created_at, expires_at, client_id)
          VALUES (${row.id}, ${row.tenant_id}, ${row.user_id}, ${row.family_id}, ${row.token_hmac}, ${row.created_at}, ${row.expires_at}, ${row.client_id})`,
    );
  }
  async findRefreshByHmac(hmac: Buffer): Promise<RefreshTokenRow | undefined> {
    return await this.db.one(sql<RefreshTokenRow>`SELECT * FROM refresh_tokens WHERE token_hmac = ${hmac}`);
  }
  async markRefreshUsed(tenantId: string, id: string, at: number): Promise<boolean> {
    return (
      (await this.db.run(sql`UPDATE refresh_tokens SET used_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id} AND used_at IS NULL AND revoked_at IS NULL`))
        .changes === 1
    );
  }
  async revokeFamily(tenantId: string, familyId: string, at: number): Promise<void> {
    await this.db.run(sql`UPDATE refresh_tokens SET revoked_at = ${at} WHERE tenant_id = ${tenantId} AND family_id = ${familyId} AND revoked_at IS NULL`);
  }
  /** Served by the partial index refresh_tokens_revoked_family (migration 2); SQLite is told so, PostgreSQL's planner finds it. */
  async familyRevoked(tenantId: string, familyId: string): Promise<boolean> {
    const found = await this.db.one(
      this.db.engine === 'postgres'
        ? sql`SELECT 1 AS found FROM refresh_tokens WHERE tenant_id = ${tenantId} AND family_id = ${familyId} AND revoked_at IS NOT NULL LIMIT 1`
        : sql`SELECT 1 AS found FROM refresh_tokens INDEXED BY refresh_tokens_revoked_family
              WHERE tenant_id = ${tenantId} AND family_id = ${familyId} AND revoked_at IS NOT NULL LIMIT 1`,
    );
    return found !== undefined;
  }
}
