// The classifier's own filings and the user's rejections of them: which nodes the
// classifier may reconsider (orphans and nodes holding only automatic associations),
// which items a user turned down for a node, and the associations a node shows.
import type { Database } from '../db/store/contract.js';

export interface ParaAssignmentRow {
  para_item_id: string;
  source: 'user' | 'auto';
  score: number | null;
  method: string | null;
}

export class ParaAutoRepo {
  constructor(private readonly db: Database) {}

  /** Nodes whose visible associations are all automatic: a rescan may refile them. */
  async autoOnlyNodeIds(tenantId: string): Promise<string[]> {
    // n.seq is selected too (pluck keeps the first column): PostgreSQL orders a DISTINCT by selected columns only.
    return await this.db
      .prepare(
        `SELECT DISTINCT np.node_id, n.seq FROM node_para np JOIN nodes n ON n.id = np.node_id AND n.tenant_id = np.tenant_id
          WHERE np.tenant_id = ? AND np.archived = 0 AND np.source = 'auto' AND n.status != 'dismissed'
            AND NOT EXISTS (SELECT 1 FROM node_para u WHERE u.tenant_id = np.tenant_id AND u.node_id = np.node_id AND u.archived = 0 AND u.source = 'user')
          ORDER BY n.seq`,
      )
      .pluck()
      .all(tenantId) as string[];
  }

  /** Whether the node holds no visible user association (so the classifier may file or refile it). */
  async classifierMayFile(tenantId: string, nodeId: string): Promise<boolean> {
    return (
      await this.db
        .prepare(
          `SELECT 1 FROM nodes n WHERE n.tenant_id = ? AND n.id = ? AND n.status != 'dismissed'
             AND NOT EXISTS (SELECT 1 FROM node_para np WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0 AND np.source = 'user')`,
        )
        .pluck()
        .get(tenantId, nodeId) === 1
    );
  }

  /** The node's visible automatic associations. */
  async autoItems(tenantId: string, nodeId: string): Promise<string[]> {
    return await this.db
      .prepare("SELECT para_item_id FROM node_para WHERE tenant_id = ? AND node_id = ? AND archived = 0 AND source = 'auto' ORDER BY para_item_id")
      .pluck()
      .all(tenantId, nodeId) as string[];
  }

  /** Removes the node's visible automatic associations (the classifier refiling it). */
  async clearAuto(tenantId: string, nodeId: string): Promise<number> {
    return (await this.db.prepare("DELETE FROM node_para WHERE tenant_id = ? AND node_id = ? AND archived = 0 AND source = 'auto'").run(tenantId, nodeId)).changes;
  }

  /** Items the user removed from this node after the classifier filed it there. */
  async rejectedItems(tenantId: string, nodeId: string): Promise<Set<string>> {
    return new Set(await this.db.prepare('SELECT para_item_id FROM para_rejections WHERE tenant_id = ? AND node_id = ?').pluck().all(tenantId, nodeId) as string[]);
  }

  async reject(tenantId: string, nodeId: string, itemId: string, at: string): Promise<void> {
    await this.db.prepare('INSERT OR IGNORE INTO para_rejections (tenant_id, node_id, para_item_id, created_at) VALUES (?, ?, ?, ?)').run(tenantId, nodeId, itemId, at);
  }

  /** A user filed the node there after all: the rejection no longer stands. */
  async unreject(tenantId: string, nodeId: string, itemIds: string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.db.prepare('DELETE FROM para_rejections WHERE tenant_id = ? AND node_id = ? AND para_item_id IN (SELECT value FROM json_each(?))').run(tenantId, nodeId, JSON.stringify(itemIds));
  }

  /** The node's visible associations with where they came from. */
  async assignments(tenantId: string, nodeId: string): Promise<ParaAssignmentRow[]> {
    return await this.db
      .prepare('SELECT para_item_id, source, score, method FROM node_para WHERE tenant_id = ? AND node_id = ? AND archived = 0 ORDER BY created_at, para_item_id')
      .all(tenantId, nodeId) as ParaAssignmentRow[];
  }
}
