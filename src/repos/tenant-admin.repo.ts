// What an operator reads and changes about tenants: status (active / suspended), the
// listing with each tenant's size, and whether it still has a working API key.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export type TenantStatus = 'active' | 'suspended';

export interface TenantAdminRow {
  id: string;
  name: string;
  status: TenantStatus;
  created_at: string;
  suspended_at: string | null;
  nodes: number;
  captures: number;
  api_keys: number;
}

/** The listing's columns and joins; the caller adds WHERE / ORDER BY. */
const SELECT = sql`SELECT t.id, t.name, t.status, t.created_at, t.suspended_at,
    COALESCE(s.total_nodes, 0) AS nodes, COALESCE(s.total_captures, 0) AS captures,
    (SELECT count(*) FROM api_keys k WHERE k.tenant_id = t.id AND k.revoked_at IS NULL) AS api_keys
  FROM tenants t LEFT JOIN tenant_stats s ON s.tenant_id = t.id`;

export class TenantAdminRepo {
  constructor(private readonly db: Database) {}

  async list(): Promise<TenantAdminRow[]> {
    return (await this.db.all(sql<TenantAdminRow>`${SELECT} ORDER BY t.created_at, t.id`)).map(numbers);
  }
  async get(tenantId: string): Promise<TenantAdminRow | undefined> {
    const row = await this.db.one(sql<TenantAdminRow>`${SELECT} WHERE t.id = ${tenantId}`);
    return row && numbers(row);
  }
  async status(tenantId: string): Promise<TenantStatus | undefined> {
    return await this.db.value<TenantStatus>(sql`SELECT status FROM tenants WHERE id = ${tenantId}`);
  }
  async setStatus(tenantId: string, status: TenantStatus, at: string | null): Promise<boolean> {
    return (await this.db.run(sql`UPDATE tenants SET status = ${status}, suspended_at = ${at} WHERE id = ${tenantId}`)).changes > 0;
  }
  async countByStatus(): Promise<Array<{ status: TenantStatus; n: number }>> {
    const rows = await this.db.all(sql<{ status: TenantStatus; n: number | string }>`SELECT status, count(*) AS n FROM tenants GROUP BY status`);
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  }
  /** The tenant's node seqs (the vector table's keys). */
  async nodeSeqs(tenantId: string): Promise<number[]> {
    return (await this.db.all(sql<{ seq: number | bigint | string }>`SELECT seq FROM nodes WHERE tenant_id = ${tenantId} ORDER BY seq`)).map((r) => Number(r.seq));
  }
}

/** PostgreSQL's bigint counts arrive as strings. */
function numbers(r: TenantAdminRow): TenantAdminRow {
  return { ...r, nodes: Number(r.nodes), captures: Number(r.captures), api_keys: Number(r.api_keys) };
}
