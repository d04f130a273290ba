// Daily graph-health snapshots (one small row per tenant and UTC day) and the counts and
// lists behind the dashboard's "needs attention" inbox.
import type { Database } from '../db/store/contract.js';

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

const ORPHAN = `n.tenant_id = @t AND n.status != 'dismissed'
  AND NOT EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0)`;
const STALE = `n.tenant_id = @t AND n.status = 'raw' AND n.updated_at < @before`;
const AUTO = `np.tenant_id = @t AND np.source = 'auto' AND np.archived = 0`;

export class HealthHistoryRepo {
  private readonly upsertStmt;
  private readonly rangeStmt;
  private readonly failedCountStmt;
  private readonly failedStmt;
  private readonly orphanCountStmt;
  private readonly orphansStmt;
  private readonly staleCountStmt;
  private readonly staleStmt;
  private readonly autoCountStmt;
  private readonly autoStmt;

  constructor(db: Database) {
    this.upsertStmt = db.prepare(
      `INSERT INTO graph_health_daily (tenant_id, day, total_nodes, validated_nodes, total_links, total_captures, failed_captures, stale_nodes, orphan_nodes)
       VALUES (@tenant_id, @day, @total_nodes, @validated_nodes, @total_links, @total_captures, @failed_captures, @stale_nodes, @orphan_nodes)
       ON CONFLICT (tenant_id, day) DO UPDATE SET total_nodes = excluded.total_nodes, validated_nodes = excluded.validated_nodes,
         total_links = excluded.total_links, total_captures = excluded.total_captures, failed_captures = excluded.failed_captures,
         stale_nodes = excluded.stale_nodes, orphan_nodes = excluded.orphan_nodes`,
    );
    this.rangeStmt = db.prepare(
      `SELECT day, total_nodes, validated_nodes, total_links, total_captures, failed_captures, stale_nodes, orphan_nodes
         FROM graph_health_daily WHERE tenant_id = ? AND day >= ? ORDER BY day`,
    );
    this.failedCountStmt = db.prepare(`SELECT count(*) FROM captures WHERE tenant_id = @t AND status = 'failed'`).pluck();
    this.failedStmt = db.prepare(
      `SELECT id, title, url, error, updated_at FROM captures WHERE tenant_id = @t AND status = 'failed' ORDER BY updated_at DESC LIMIT @limit`,
    );
    this.orphanCountStmt = db.prepare(`SELECT count(*) FROM nodes n WHERE ${ORPHAN}`).pluck();
    this.orphansStmt = db.prepare(`SELECT n.id, n.title, n.updated_at FROM nodes n WHERE ${ORPHAN} ORDER BY n.updated_at DESC LIMIT @limit`);
    this.staleCountStmt = db.prepare(`SELECT count(*) FROM nodes n WHERE ${STALE}`).pluck();
    this.staleStmt = db.prepare(`SELECT n.id, n.title, n.updated_at FROM nodes n WHERE ${STALE} ORDER BY n.updated_at LIMIT @limit`);
    this.autoCountStmt = db.prepare(`SELECT count(*) FROM node_para np WHERE ${AUTO}`).pluck();
    this.autoStmt = db.prepare(
      `SELECT np.node_id, n.title, np.para_item_id, p.label AS para_label, np.score, np.method
         FROM node_para np
         JOIN nodes n ON n.id = np.node_id AND n.tenant_id = np.tenant_id
         JOIN para_items p ON p.id = np.para_item_id AND p.tenant_id = np.tenant_id
        WHERE ${AUTO} ORDER BY np.created_at DESC, np.node_id LIMIT @limit`,
    );
  }

  async upsert(tenantId: string, row: HealthSnapshotRow): Promise<void> {
    await this.upsertStmt.run({ tenant_id: tenantId, ...row });
  }

  async since(tenantId: string, fromDay: string): Promise<HealthSnapshotRow[]> {
    return await this.rangeStmt.all(tenantId, fromDay) as HealthSnapshotRow[];
  }

  async failedCaptureCount(tenantId: string): Promise<number> {
    return await this.failedCountStmt.get({ t: tenantId }) as number;
  }

  async orphanCount(tenantId: string): Promise<number> {
    return await this.orphanCountStmt.get({ t: tenantId }) as number;
  }

  async staleRawCount(tenantId: string, beforeIso: string): Promise<number> {
    return await this.staleCountStmt.get({ t: tenantId, before: beforeIso }) as number;
  }

  async autoFilingCount(tenantId: string): Promise<number> {
    return await this.autoCountStmt.get({ t: tenantId }) as number;
  }

  async failedCaptures(tenantId: string, limit: number) {
    return await this.failedStmt.all({ t: tenantId, limit }) as Array<{ id: string; title: string; url: string | null; error: string | null; updated_at: string }>;
  }

  async orphans(tenantId: string, limit: number) {
    return await this.orphansStmt.all({ t: tenantId, limit }) as Array<{ id: string; title: string; updated_at: string }>;
  }

  async stale(tenantId: string, beforeIso: string, limit: number) {
    return await this.staleStmt.all({ t: tenantId, before: beforeIso, limit }) as Array<{ id: string; title: string; updated_at: string }>;
  }

  async autoFilings(tenantId: string, limit: number) {
    return await this.autoStmt.all({ t: tenantId, limit }) as Array<{ node_id: string; title: string; para_item_id: string; para_label: string; score: number | null; method: string | null }>;
  }
}
