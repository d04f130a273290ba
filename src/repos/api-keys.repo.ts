import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
  constructor(private readonly db: Database) {}

  async insert(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
    await this.db.run(
      sql`INSERT INTO api_keys (id, tenant_id, name, secret_hmac, created_at) VALUES (${row.id}, ${row.tenant_id}, ${row.name}, ${row.secret_hmac}, ${row.created_at})`,
    );
  }
  /**
   * Looked up by key id before the tenant is known: the key id is what names the tenant.
   * The tenant's status comes with it (one statement per request, not two: a suspended
   * tenant's keys are refused without asking again).
   */
  async findActive(id: string): Promise<(ApiKeyRow & { tenant_status: string }) | undefined> {
    return await this.db.one(
      sql<ApiKeyRow & { tenant_status: string }>`SELECT k.*, t.status AS tenant_status FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
        WHERE k.id = ${id} AND k.revoked_at IS NULL`,
    );
  }
  async list(tenantId: string): Promise<Pick<ApiKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>[]> {
    return await this.db.all(
      sql<Pick<ApiKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>>`SELECT id, name, created_at, last_used_at FROM api_keys
        WHERE tenant_id = ${tenantId} AND revoked_at IS NULL ORDER BY created_at, id`,
    );
  }
  async revoke(tenantId: string, id: string, at: string): Promise<boolean> {
    return (await this.db.run(sql`UPDATE api_keys SET revoked_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id} AND revoked_at IS NULL`)).changes > 0;
  }
  async touch(tenantId: string, id: string, at: string): Promise<void> {
    await this.db.run(sql`UPDATE api_keys SET last_used_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
}
