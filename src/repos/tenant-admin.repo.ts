// What an operator reads and changes about tenants: status (active / suspended), the
// listing with each tenant's size, and whether it still has a working API key.
import type { Db } from '../db/open.js';

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

const SELECT = `SELECT t.id, t.name, t.status, t.created_at, t.suspended_at,
    COALESCE(s.total_nodes, 0) AS nodes, COALESCE(s.total_captures, 0) AS captures,
    (SELECT count(*) FROM api_keys k WHERE k.tenant_id = t.id AND k.revoked_at IS NULL) AS api_keys
  FROM tenants t LEFT JOIN tenant_stats s ON s.tenant_id = t.id`;

export class TenantAdminRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      list: db.prepare(`${SELECT} ORDER BY t.created_at, t.id`),
      get: db.prepare(`${SELECT} WHERE t.id = ?`),
      status: db.prepare('SELECT status FROM tenants WHERE id = ?').pluck(),
      setStatus: db.prepare('UPDATE tenants SET status = ?, suspended_at = ? WHERE id = ?'),
      byStatus: db.prepare('SELECT status, count(*) AS n FROM tenants GROUP BY status'),
      seqs: db.prepare('SELECT seq FROM nodes WHERE tenant_id = ? ORDER BY seq').pluck(),
    };
  }

  list(): TenantAdminRow[] {
    return (this.s.list.all() as TenantAdminRow[]).map(numbers);
  }
  get(tenantId: string): TenantAdminRow | undefined {
    const row = this.s.get.get(tenantId) as TenantAdminRow | undefined;
    return row && numbers(row);
  }
  status(tenantId: string): TenantStatus | undefined {
    return this.s.status.get(tenantId) as TenantStatus | undefined;
  }
  setStatus(tenantId: string, status: TenantStatus, at: string | null): boolean {
    return this.s.setStatus.run(status, at, tenantId).changes > 0;
  }
  countByStatus(): Array<{ status: TenantStatus; n: number }> {
    return (this.s.byStatus.all() as Array<{ status: TenantStatus; n: number }>).map((r) => ({ status: r.status, n: Number(r.n) }));
  }
  /** The tenant's node seqs (the vector table's keys). */
  nodeSeqs(tenantId: string): number[] {
    return (this.s.seqs.all(tenantId) as Array<number | bigint | string>).map(Number);
  }
}

/** PostgreSQL's bigint counts arrive as strings. */
function numbers(r: TenantAdminRow): TenantAdminRow {
  return { ...r, nodes: Number(r.nodes), captures: Number(r.captures), api_keys: Number(r.api_keys) };
}
