// Identity-provider flow state and one-time hand-off codes: short-lived, consumed once.
import type { Database } from '../db/store/contract.js';

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
  private readonly insertFlow;
  private readonly findFlow;
  private readonly useFlow;
  private readonly purgeFlows;
  private readonly insertHandoff;
  private readonly findHandoff;
  private readonly useHandoff;
  private readonly purgeHandoffs;

  constructor(db: Database) {
    this.insertFlow = db.prepare(
      `INSERT INTO oidc_flows (id, handle_hmac, provider, kind, nonce, code_verifier, device_code, return_to, client_state, handoff_challenge, created_at, expires_at)
       VALUES (@id, @handle_hmac, @provider, @kind, @nonce, @code_verifier, @device_code, @return_to, @client_state, @handoff_challenge, @created_at, @expires_at)`,
    );
    this.findFlow = db.prepare('SELECT * FROM oidc_flows WHERE handle_hmac = ?');
    this.useFlow = db.prepare('UPDATE oidc_flows SET used_at = ? WHERE id = ? AND used_at IS NULL');
    this.purgeFlows = db.prepare('DELETE FROM oidc_flows WHERE expires_at < ?');
    // Hand-off codes name a tenant; every lookup after the first is scoped by it.
    this.insertHandoff = db.prepare(
      `INSERT INTO oidc_handoffs (code_hmac, tenant_id, user_id, provider, challenge, expires_at)
       VALUES (@code_hmac, @tenant_id, @user_id, @provider, @challenge, @expires_at)`,
    );
    this.findHandoff = db.prepare('SELECT * FROM oidc_handoffs WHERE code_hmac = ?');
    this.useHandoff = db.prepare('UPDATE oidc_handoffs SET used_at = ? WHERE tenant_id = ? AND code_hmac = ? AND used_at IS NULL');
    this.purgeHandoffs = db.prepare('DELETE FROM oidc_handoffs WHERE expires_at < ?');
  }

  async addFlow(row: Omit<OidcFlowRow, 'used_at'>): Promise<void> {
    await this.insertFlow.run(row);
  }
  async findFlowByHandle(hmac: Buffer): Promise<OidcFlowRow | undefined> {
    return await this.findFlow.get(hmac) as OidcFlowRow | undefined;
  }
  /** True only for the one caller that consumed it. */
  async consumeFlow(id: string, at: number): Promise<boolean> {
    return (await this.useFlow.run(at, id)).changes === 1;
  }
  async addHandoff(row: Omit<OidcHandoffRow, 'used_at'>): Promise<void> {
    await this.insertHandoff.run(row);
  }
  async findHandoffByCode(hmac: Buffer): Promise<OidcHandoffRow | undefined> {
    return await this.findHandoff.get(hmac) as OidcHandoffRow | undefined;
  }
  async consumeHandoff(tenantId: string, hmac: Buffer, at: number): Promise<boolean> {
    return (await this.useHandoff.run(at, tenantId, hmac)).changes === 1;
  }
  /** Drops rows expired before `before` (they can no longer be used anyway). */
  async purge(before: number): Promise<void> {
    await this.purgeFlows.run(before);
    await this.purgeHandoffs.run(before);
  }
}
