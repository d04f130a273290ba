// The classifier's own filings and the user's rejections of them: which nodes the
// classifier may reconsider (orphans and nodes holding only automatic associations),
// which items a user turned down for a node, and the associations a node shows.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export class ParaAutoRepo {
  constructor(private readonly db: Database) {}

  /** Nodes whose visible associations are all automatic: a rescan may refile them. */
  async autoOnlyNodeIds(tenantId: string): Promise<string[]> {
    // n.seq is selected too: PostgreSQL orders a DISTINCT by selected columns only.
    const rows = await this.db.all(
      sql<{ node_id: string }>`SELECT DISTINCT np.node_id, n.seq FROM node_para np JOIN nodes n ON n.id = np.node_id AND n.tenant_id = np.tenant_id
          WHERE np.tenant_id = ${tenantId} AND np.archived = 0 AND np.source = 'auto' AND n.status != 'dismissed'
            AND NOT EXISTS (SELECT 1 FROM node_para u WHERE u.tenant_id = np.tenant_id AND u.node_id = np.node_id AND u.archived = 0 AND u.source = 'user')
          ORDER BY n.seq`,
    );
    return rows.map((r) => r.node_id);
  }

  /** Whether the node holds no visible user association (so the classifier may file or refile it). */
  async classifierMayFile(tenantId: string, nodeId: string): Promise<boolean> {
    return (
      (await this.db.value(
        sql`SELECT 1 FROM nodes n WHERE n.tenant_id = ${tenantId} AND n.id = ${nodeId} AND n.status != 'dismissed'
             AND NOT EXISTS (SELECT 1 FROM node_para np WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0 AND np.source = 'user')`,
      )) === 1
    );
  }

  /** The node's visible automatic associations. */
  async autoItems(tenantId: string, nodeId: string): Promise<string[]> {
    const rows = await this.db.all(
      sql<{ para_item_id: string }>`SELECT para_item_id FROM node_para WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND archived = 0 AND source = 'auto' ORDER BY para_item_id`,
    );
    return rows.map((r) => r.para_item_id);
  }

  /** Removes the node's visible automatic associations (the classifier refiling it). */
  async clearAuto(tenantId: string, nodeId: string): Promise<number> {
    return (await this.db.run(sql`DELETE FROM node_para WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND archived = 0 AND source = 'auto'`)).changes;
  }

  /** Items the user removed from this node after the classifier filed it there. */
  async rejectedItems(tenantId: string, nodeId: string): Promise<Set<string>> {
    const rows = await this.db.all(sql<{ para_item_id: string }>`SELECT para_item_id FROM para_rejections WHERE tenant_id = ${tenantId} AND node_id = ${nodeId}`);
    return new Set(rows.map((r) => r.para_item_id));
  }

  async reject(tenantId: string, nodeId: string, itemId: string, at: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO para_rejections (tenant_id, node_id, para_item_id, created_at) VALUES (${tenantId}, ${nodeId}, ${itemId}, ${at}) ON CONFLICT DO NOTHING`,
    );
  }

  /** A user filed the node there after all: the rejection no longer stands. */
  async unreject(tenantId: string, nodeId: string, itemIds: string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.db.run(
      this.db.engine === 'postgres'
        ? sql`DELETE FROM para_rejections WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND para_item_id = ANY(${itemIds}::text[])`
        : sql`DELETE FROM para_rejections WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND para_item_id IN (SELECT value FROM json_each(${JSON.stringify(itemIds)}))`,
    );
  }
}
