// The dashboard's whole-tenant reads: every node with its degree, PARA items and tags, and
// each link once. Links are stored in both directions, so `source_id < target_id` picks one
// row of each pair; a node's degree is its count of outgoing rows (links_tenant_source).
import type { Database } from '../db/store/contract.js';
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
  private readonly nodesStmt;
  private readonly nodeCountStmt;
  private readonly degreesStmt;
  private readonly paraStmt;
  private readonly linksStmt;
  private readonly linkCountStmt;

  constructor(db: Database) {
    this.nodesStmt = db.prepare(
      `SELECT id, title, status, tags FROM nodes WHERE tenant_id = ? ORDER BY updated_at DESC, seq DESC LIMIT ?`,
    );
    this.nodeCountStmt = db.prepare('SELECT count(*) FROM nodes WHERE tenant_id = ?').pluck();
    this.degreesStmt = db.prepare('SELECT source_id, count(*) AS degree FROM links WHERE tenant_id = ? GROUP BY source_id').raw();
    this.paraStmt = db.prepare('SELECT node_id, para_item_id FROM node_para WHERE tenant_id = ? AND archived = 0 ORDER BY node_id, created_at').raw();
    this.linksStmt = db.prepare(
      `SELECT source_id, target_id, type FROM links WHERE tenant_id = ? AND source_id < target_id
         AND source_id IN (SELECT value FROM json_each(?)) AND target_id IN (SELECT value FROM json_each(?))
       ORDER BY source_id, target_id LIMIT ?`,
    );
    this.linkCountStmt = db.prepare('SELECT count(*) FROM links WHERE tenant_id = ? AND source_id < target_id').pluck();
  }

  async nodes(tenantId: string, limit: number): Promise<GraphNodeRow[]> {
    return await this.nodesStmt.all(tenantId, limit) as GraphNodeRow[];
  }

  async nodeCount(tenantId: string): Promise<number> {
    return await this.nodeCountStmt.get(tenantId) as number;
  }

  async linkCount(tenantId: string): Promise<number> {
    return await this.linkCountStmt.get(tenantId) as number;
  }

  async degrees(tenantId: string): Promise<Map<string, number>> {
    return new Map(await this.degreesStmt.all(tenantId) as Array<[string, number]>);
  }

  async paraItems(tenantId: string): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const [node, item] of await this.paraStmt.all(tenantId) as Array<[string, string]>) {
      const list = out.get(node);
      if (list) list.push(item);
      else out.set(node, [item]);
    }
    return out;
  }

  /** Each link between two of these nodes once, up to `limit`. */
  async links(tenantId: string, nodeIds: string[], limit: number): Promise<GraphLinkRow[]> {
    const ids = JSON.stringify(nodeIds);
    return (await this.linksStmt.all(tenantId, ids, ids, limit)) as GraphLinkRow[];
  }
}
