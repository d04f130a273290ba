// Links are stored in both directions (source → target and target → source, the reverse
// carrying the inverse type); LinksService keeps the pairs together.
import type { Database } from '../db/store/contract.js';
import type { LinkType } from '../schemas/graph.js';

export interface LinkRow {
  target_id: string;
  type: LinkType;
}

export interface RelatedRow {
  id: string;
  title: string;
  summary: string;
  relationship_type: LinkType;
}

export interface EdgeRow {
  source_id: string;
  target_id: string;
  type: LinkType;
}

export class LinksRepo {
  private readonly nodeExistsStmt;
  private readonly existingIdsStmt;
  private readonly outgoingStmt;
  private readonly deleteOneStmt;
  private readonly upsertStmt;
  private readonly relatedStmt;
  private readonly edgesFromStmt;

  constructor(db: Database) {
    this.nodeExistsStmt = db.prepare('SELECT 1 FROM nodes WHERE tenant_id = ? AND id = ?').pluck();
    this.existingIdsStmt = db
      .prepare('SELECT n.id FROM json_each(?) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ?')
      .pluck();
    this.outgoingStmt = db.prepare(
      'SELECT target_id, type FROM links WHERE tenant_id = ? AND source_id = ? ORDER BY target_id',
    );
    this.deleteOneStmt = db.prepare('DELETE FROM links WHERE tenant_id = ? AND source_id = ? AND target_id = ?');
    // A changed type is a new link: it takes the new creation time too.
    this.upsertStmt = db.prepare(
      `INSERT INTO links (tenant_id, source_id, target_id, type, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (source_id, target_id) DO UPDATE SET type = excluded.type, created_at = excluded.created_at
       WHERE links.tenant_id = excluded.tenant_id`,
    );
    this.relatedStmt = db.prepare(
      `SELECT n.id, n.title, n.summary, l.type AS relationship_type
         FROM links l JOIN nodes n ON n.id = l.target_id
        WHERE l.tenant_id = ? AND l.source_id = ? AND n.tenant_id = l.tenant_id
        ORDER BY l.type, n.title, n.id
        LIMIT ?`,
    );
    this.edgesFromStmt = db.prepare(
      `SELECT source_id, target_id, type FROM links
        WHERE tenant_id = ? AND source_id IN (SELECT value FROM json_each(?))
        ORDER BY source_id, target_id
        LIMIT ?`,
    );
  }

  async nodeExists(tenantId: string, id: string): Promise<boolean> {
    return await this.nodeExistsStmt.get(tenantId, id) !== undefined;
  }

  /** Which of these ids name nodes of this tenant. */
  async existingIds(tenantId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set(await this.existingIdsStmt.all(JSON.stringify(ids), tenantId) as string[]);
  }

  async outgoing(tenantId: string, sourceId: string): Promise<LinkRow[]> {
    return await this.outgoingStmt.all(tenantId, sourceId) as LinkRow[];
  }

  /** Removes one direction; callers remove both. */
  async delete(tenantId: string, sourceId: string, targetId: string): Promise<void> {
    await this.deleteOneStmt.run(tenantId, sourceId, targetId);
  }

  async upsert(tenantId: string, sourceId: string, targetId: string, type: LinkType, createdAt: string): Promise<void> {
    await this.upsertStmt.run(tenantId, sourceId, targetId, type, createdAt);
  }

  async related(tenantId: string, id: string, limit: number): Promise<RelatedRow[]> {
    return await this.relatedStmt.all(tenantId, id, limit) as RelatedRow[];
  }

  /** Outgoing rows of many nodes at once (graph walks), at most `limit` rows. */
  async edgesFrom(tenantId: string, sourceIds: string[], limit: number): Promise<EdgeRow[]> {
    if (sourceIds.length === 0) return [];
    return await this.edgesFromStmt.all(tenantId, JSON.stringify(sourceIds), limit) as EdgeRow[];
  }
}
