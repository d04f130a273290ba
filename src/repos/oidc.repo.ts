// Identity-provider flow state and one-time hand-off codes: short-lived, consumed once.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface OidcFlowRow {
  id: string;
  handle_hmac: Buffer;
  provider: string;
  kind: 'web' | 'cli' | 'device';
  nonce: string | null;
  code_verifier: string | null;
  device_code: string | null;
  return_to: string;
  client_state: string | null;
  handoff_challenge: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OidcHandoffRow {
  code_hmac: Buffer;
  tenant_id: string;
  user_id: string;
  provider: string;
  challenge: string | null;
  expires_at: number;
  used_at: number | null;
}

export class OidcRepo {
  constructor(private readonly db: Database) {}

  async addFlow(row: Omit<OidcFlowRow, 'used_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO oidc_flows (id, handle_hmac, provider, kind, nonce, code_verifier, device_code, return_to, client_state, handoff_challenge, created_at, expires_at)
          VALUES (${row.id}, ${row.handle_hmac}, ${row.provider}, ${row.kind}, ${row.nonce}, ${row.code_verifier}, ${row.device_code}, ${row.return_to},
            ${row.client_state}, ${row.handoff_challenge}, ${row.created_at}, ${row.expires_at})`,
    );
  }
  async findFlowByHandle(hmac: Buffer): Promise<OidcFlowRow | undefined> {
    return await this.db.one(sql<OidcFlowRow>`SELECT * FROM oidc_flows WHERE handle_hmac = ${hmac}`);
  }
  /** True only for the one caller that consumed it. */
  async consumeFlow(id: string, at: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE oidc_flows SET used_at = ${at} WHERE id = ${id} AND used_at IS NULL`)).changes === 1;
  }
  /** Hand-off codes name a tenant; every lookup after the first is scoped by it. */
  async addHandoff(row: Omit<OidcHandoffRow, 'used_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO oidc_handoffs (code_hmac, tenant_id, user_id, provider, challenge, expires_at)
          VALUES (${row.code_hmac}, ${row.tenant_id}, ${row.user_id}, ${row.provider}, ${row.challenge}, ${row.expires_at})`,
    );
  }
  async findHandoffByCode(hmac: Buffer): Promise<OidcHandoffRow | undefined> {
    return await this.db.one(sql<OidcHandoffRow>`SELECT * FROM oidc_handoffs WHERE code_hmac = ${hmac}`);
  }
  async consumeHandoff(tenantId: string, hmac: Buffer, at: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE oidc_handoffs SET used_at = ${at} WHERE tenant_id = ${tenantId} AND code_hmac = ${hmac} AND used_at IS NULL`)).changes === 1;
  }
  /** Drops rows expired before `before` (they can no longer be used anyway). */
  async purge(before: number): Promise<void> {
    await this.db.run(sql`DELETE FROM oidc_flows WHERE expires_at < ${before}`);
    await this.db.run(sql`DELETE FROM oidc_handoffs WHERE expires_at < ${before}`);
  }
}
