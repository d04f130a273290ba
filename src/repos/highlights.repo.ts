// Highlights on nodes. Every statement filters on tenant_id; a write keyed by source_key
// that is already there does nothing (imports are idempotent).
import type { Database } from '../db/store/contract.js';

export interface HighlightRow {
  id: string;
  tenant_id: string;
  node_id: string;
  text: string;
  note: string | null;
  color: string;
  prefix: string;
  suffix: string;
  start_pos: number | null;
  end_pos: number | null;
  source: string;
  source_key: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, tenant_id, node_id, text, note, color, prefix, suffix, start_pos, end_pos, source, source_key, created_at, updated_at';

export class HighlightsRepo {
  private readonly s;

  constructor(db: Database) {
    this.s = {
      insert: db.prepare(`INSERT INTO highlights (${COLUMNS})
        VALUES (@id, @tenant_id, @node_id, @text, @note, @color, @prefix, @suffix, @start_pos, @end_pos, @source, @source_key, @created_at, @updated_at)
        ON CONFLICT (tenant_id, source_key) DO NOTHING`),
      get: db.prepare(`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ? AND node_id = ? AND id = ?`),
      byNode: db.prepare(`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ? AND node_id = ? ORDER BY created_at, id`),
      byNodes: db.prepare(`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ? AND node_id IN (SELECT j.value FROM json_each(?) j) ORDER BY node_id, created_at, id`),
      hasKey: db.prepare('SELECT 1 FROM highlights WHERE tenant_id = ? AND source_key = ?').pluck(),
      update: db.prepare('UPDATE highlights SET note = @note, color = @color, updated_at = @updated_at WHERE tenant_id = @tenant_id AND node_id = @node_id AND id = @id'),
      delete: db.prepare('DELETE FROM highlights WHERE tenant_id = ? AND node_id = ? AND id = ?'),
    };
  }

  /** false when a highlight with this source_key is already there (nothing written). */
  async insert(row: HighlightRow): Promise<boolean> {
    return (await this.s.insert.run(row)).changes > 0;
  }
  async get(tenantId: string, nodeId: string, id: string): Promise<HighlightRow | undefined> {
    return await this.s.get.get(tenantId, nodeId, id) as HighlightRow | undefined;
  }
  async byNode(tenantId: string, nodeId: string): Promise<HighlightRow[]> {
    return await this.s.byNode.all(tenantId, nodeId) as HighlightRow[];
  }
  async byNodes(tenantId: string, nodeIds: string[]): Promise<HighlightRow[]> {
    return nodeIds.length ? (await this.s.byNodes.all(tenantId, JSON.stringify(nodeIds)) as HighlightRow[]) : [];
  }
  async hasKey(tenantId: string, key: string): Promise<boolean> {
    return await this.s.hasKey.get(tenantId, key) !== undefined;
  }
  async update(row: Pick<HighlightRow, 'tenant_id' | 'node_id' | 'id' | 'note' | 'color' | 'updated_at'>): Promise<void> {
    await this.s.update.run(row);
  }
  async delete(tenantId: string, nodeId: string, id: string): Promise<boolean> {
    return (await this.s.delete.run(tenantId, nodeId, id)).changes > 0;
  }
}
