import type { Database } from '../db/store/contract.js';

export interface ApiKeyRow {
  id: string;
  tenant_id: string;
  name: string;
  secret_hmac: Buffer;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export class ApiKeysRepo {
  private readonly insertStmt;
  private readonly activeByIdStmt;
  private readonly listStmt;
  private readonly revokeStmt;
  private readonly touchStmt;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      'INSERT INTO api_keys (id, tenant_id, name, secret_hmac, created_at) VALUES (@id, @tenant_id, @name, @secret_hmac, @created_at)',
    );
    // Looked up by key id before the tenant is known: the key id is what names the tenant.
    this.activeByIdStmt = db.prepare('SELECT * FROM api_keys WHERE id = ? AND revoked_at IS NULL');
    this.listStmt = db.prepare(
      'SELECT id, name, created_at, last_used_at FROM api_keys WHERE tenant_id = ? AND revoked_at IS NULL ORDER BY created_at, id',
    );
    this.revokeStmt = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL');
    this.touchStmt = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE tenant_id = ? AND id = ?');
  }

  async insert(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
    await this.insertStmt.run(row);
  }
  async findActive(id: string): Promise<ApiKeyRow | undefined> {
    return await this.activeByIdStmt.get(id) as ApiKeyRow | undefined;
  }
  async list(tenantId: string): Promise<Pick<ApiKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>[]> {
    return await this.listStmt.all(tenantId) as never;
  }
  async revoke(tenantId: string, id: string, at: string): Promise<boolean> {
    return (await this.revokeStmt.run(at, tenantId, id)).changes > 0;
  }
  async touch(tenantId: string, id: string, at: string): Promise<void> {
    await this.touchStmt.run(at, tenantId, id);
  }
}
