// Graph health reads: the trigger-maintained counters of tenant_stats, and stale nodes
// counted over the (tenant_id, status, updated_at) index — two range counts, no table scan.
import type { Db } from '../db/open.js';

export interface TenantCounters {
  total_nodes: number;
  validated_nodes: number;
  total_captures: number;
  pending_captures: number;
  total_links: number;
}

// status is CHECK-ed to raw/validated/dismissed, so "not validated" is these two ranges.
export const STALE_SQL = `SELECT (SELECT count(*) FROM nodes WHERE tenant_id = @t AND status = 'raw' AND updated_at < @before)
     + (SELECT count(*) FROM nodes WHERE tenant_id = @t AND status = 'dismissed' AND updated_at < @before)`;

const ZERO: TenantCounters = { total_nodes: 0, validated_nodes: 0, total_captures: 0, pending_captures: 0, total_links: 0 };

export class GraphHealthRepo {
  private readonly countersStmt;
  private readonly staleStmt;

  constructor(db: Db) {
    this.countersStmt = db.prepare(
      `SELECT total_nodes, validated_nodes, total_captures, pending_captures, total_links
         FROM tenant_stats WHERE tenant_id = ?`,
    );
    this.staleStmt = db.prepare(STALE_SQL).pluck();
  }

  counters(tenantId: string): TenantCounters {
    return (this.countersStmt.get(tenantId) as TenantCounters | undefined) ?? ZERO;
  }

  /** Nodes not validated whose updated_at (ISO 8601 UTC) is before `beforeIso`. */
  staleCount(tenantId: string, beforeIso: string): number {
    return this.staleStmt.get({ t: tenantId, before: beforeIso }) as number;
  }
}
