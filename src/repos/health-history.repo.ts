// Daily graph-health snapshots (one small row per tenant and UTC day) and the counts and
// lists behind the dashboard's "needs attention" inbox.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface HealthSnapshotRow {
  day: string;
  total_nodes: number;
  validated_nodes: number;
  total_links: number;
  total_captures: number;
  failed_captures: number;
  stale_nodes: number;
  orphan_nodes: number;
}

const orphan = (t: string) => sql`n.tenant_id = ${t} AND n.status != 'dismissed'
  AND NOT EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0)`;
const stale = (t: string, before: string) => sql`n.tenant_id = ${t} AND n.status = 'raw' AND n.updated_at < ${before}`;
const auto = (t: string) => sql`np.tenant_id = ${t} AND np.source = 'auto' AND np.archived = 0`;

export class HealthHistoryRepo {
  constructor(private readonly db: Database) {}

  async upsert(tenantId: string, row: HealthSnapshotRow): Promise<void> {
    await this.db.run(
      sql`INSERT INTO graph_health_daily (tenant_id, day, total_nodes, validated_nodes, total_links, total_captures, failed_captures, stale_nodes, orphan_nodes)
       VALUES (${tenantId}, ${row.day}, ${row.total_nodes}, ${row.validated_nodes}, ${row.total_links}, ${row.total_captures}, ${row.failed_captures}, ${row.stale_nodes}, ${row.orphan_nodes})
       ON CONFLICT (tenant_id, day) DO UPDATE SET total_nodes = excluded.total_nodes, validated_nodes = excluded.validated_nodes,
         total_links = excluded.total_links, total_captures = excluded.total_captures, failed_captures = excluded.failed_captures,
         stale_nodes = excluded.stale_nodes, orphan_nodes = excluded.orphan_nodes`,
    );
  }

  async since(tenantId: string, fromDay: string): Promise<HealthSnapshotRow[]> {
    return await this.db.all(
      sql<HealthSnapshotRow>`SELECT day, total_nodes, validated_nodes, total_links, total_captures, failed_captures, stale_nodes, orphan_nodes
         FROM graph_health_daily WHERE tenant_id = ${tenantId} AND day >= ${fromDay} ORDER BY day`,
    );
  }

  async failedCaptureCount(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM captures WHERE tenant_id = ${tenantId} AND status = 'failed'`)) ?? 0;
  }

  async orphanCount(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM nodes n WHERE ${orphan(tenantId)}`)) ?? 0;
  }

  async staleRawCount(tenantId: string, beforeIso: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM nodes n WHERE ${stale(tenantId, beforeIso)}`)) ?? 0;
  }

  async autoFilingCount(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM node_para np WHERE ${auto(tenantId)}`)) ?? 0;
  }

  async failedCaptures(tenantId: string, limit: number) {
    return await this.db.all(
      sql<{ id: string; title: string; url: string | null; error: string | null; updated_at: string }>`SELECT id, title, url, error, updated_at FROM captures
        WHERE tenant_id = ${tenantId} AND status = 'failed' ORDER BY updated_at DESC LIMIT ${limit}`,
    );
  }

  async orphans(tenantId: string, limit: number) {
    return await this.db.all(
      sql<{ id: string; title: string; updated_at: string }>`SELECT n.id, n.title, n.updated_at FROM nodes n WHERE ${orphan(tenantId)} ORDER BY n.updated_at DESC LIMIT ${limit}`,
    );
  }

  async stale(tenantId: string, beforeIso: string, limit: number) {
    return await this.db.all(
      sql<{ id: string; title: string; updated_at: string }>`SELECT n.id, n.title, n.updated_at FROM nodes n WHERE ${stale(tenantId, beforeIso)} ORDER BY n.updated_at LIMIT ${limit}`,
    );
  }

  async autoFilings(tenantId: string, limit: number) {
    return await this.db.all(
      sql<{ node_id: string; title: string; para_item_id: string; para_label: string; score: number | null; method: string | null }>`SELECT np.node_id, n.title, np.para_item_id, p.label AS para_label, np.score, np.method
         FROM node_para np
         JOIN nodes n ON n.id = np.node_id AND n.tenant_id = np.tenant_id
         JOIN para_items p ON p.id = np.para_item_id AND p.tenant_id = np.tenant_id
        WHERE ${auto(tenantId)} ORDER BY np.created_at DESC, np.node_id LIMIT ${limit}`,
    );
  }
}
