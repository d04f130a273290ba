// The dashboard's whole-tenant reads: every node with its degree, PARA items and tags, and
// each link once. Links are stored in both directions, so `source_id < target_id` picks one
// row of each pair; a node's degree is its count of outgoing rows (links_tenant_source).
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
import type { LinkType } from '../schemas/graph.js';

export interface GraphNodeRow {
  id: string;
  title: string;
  status: 'raw' | 'validated' | 'dismissed';
  tags: string; // JSON array
}

export interface GraphLinkRow {
  source_id: string;
  target_id: string;
  type: LinkType;
}

export class GraphViewRepo {
  constructor(private readonly db: Database) {}

  async nodes(tenantId: string, limit: number): Promise<GraphNodeRow[]> {
    return await this.db.all(sql<GraphNodeRow>`SELECT id, title, status, tags FROM nodes WHERE tenant_id = ${tenantId} ORDER BY updated_at DESC, seq DESC LIMIT ${limit}`);
  }

  async nodeCount(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM nodes WHERE tenant_id = ${tenantId}`)) ?? 0;
  }

  async linkCount(tenantId: string): Promise<number> {
    return (await this.db.value<number>(sql`SELECT count(*) FROM links WHERE tenant_id = ${tenantId} AND source_id < target_id`)) ?? 0;
  }

  async degrees(tenantId: string): Promise<Map<string, number>> {
    const rows = await this.db.all(sql<{ source_id: string; degree: number }>`SELECT source_id, count(*) AS degree FROM links WHERE tenant_id = ${tenantId} GROUP BY source_id`);
    return new Map(rows.map((r) => [r.source_id, r.degree]));
  }

  async paraItems(tenantId: string): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const rows = await this.db.all(
      sql<{ node_id: string; para_item_id: string }>`SELECT node_id, para_item_id FROM node_para WHERE tenant_id = ${tenantId} AND archived = 0 ORDER BY node_id, created_at`,
    );
    for (const { node_id: node, para_item_id: item } of rows) {
      const list = out.get(node);
      if (list) list.push(item);
      else out.set(node, [item]);
    }
    return out;
  }

  /** Each link between two of these nodes once, up to `limit`. */
  async links(tenantId: string, nodeIds: string[], limit: number): Promise<GraphLinkRow[]> {
    if (this.db.engine === 'postgres') {
      return await this.db.all(sql<GraphLinkRow>`SELECT source_id, target_id, type FROM links WHERE tenant_id = ${tenantId} AND source_id < target_id
             AND source_id = ANY(${nodeIds}::text[]) AND target_id = ANY(${nodeIds}::text[])
           ORDER BY source_id, target_id LIMIT ${limit}`);
    }
    const ids = JSON.stringify(nodeIds);
    return await this.db.all(sql<GraphLinkRow>`SELECT source_id, target_id, type FROM links WHERE tenant_id = ${tenantId} AND source_id < target_id
             AND source_id IN (SELECT value FROM json_each(${ids})) AND target_id IN (SELECT value FROM json_each(${ids}))
           ORDER BY source_id, target_id LIMIT ${limit}`);
  }
}
