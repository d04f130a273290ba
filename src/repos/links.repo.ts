// Links are stored in both directions (source → target and target → source, the reverse
// carrying the inverse type); LinksService keeps the pairs together.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';
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
  constructor(private readonly db: Database) {}

  async nodeExists(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM nodes WHERE tenant_id = ${tenantId} AND id = ${id}`)) !== undefined;
  }

  /** Which of these ids name nodes of this tenant. */
  async existingIds(tenantId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ id: string }>`SELECT n.id FROM unnest(${ids}::text[]) AS j(value) JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<{ id: string }>`SELECT n.id FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`,
    );
    return new Set(rows.map((r) => r.id));
  }

  async outgoing(tenantId: string, sourceId: string): Promise<LinkRow[]> {
    return await this.db.all(sql<LinkRow>`SELECT target_id, type FROM links WHERE tenant_id = ${tenantId} AND source_id = ${sourceId} ORDER BY target_id`);
  }

  /** Removes one direction; callers remove both. */
  async delete(tenantId: string, sourceId: string, targetId: string): Promise<void> {
    await this.db.run(sql`DELETE FROM links WHERE tenant_id = ${tenantId} AND source_id = ${sourceId} AND target_id = ${targetId}`);
  }

  /** A changed type is a new link: it takes the new creation time too. */
  async upsert(tenantId: string, sourceId: string, targetId: string, type: LinkType, createdAt: string): Promise<void> {
    await this.db.run(
      sql`INSERT INTO links (tenant_id, source_id, target_id, type, created_at) VALUES (${tenantId}, ${sourceId}, ${targetId}, ${type}, ${createdAt})
       ON CONFLICT (source_id, target_id) DO UPDATE SET type = excluded.type, created_at = excluded.created_at
       WHERE links.tenant_id = excluded.tenant_id`,
    );
  }

  async related(tenantId: string, id: string, limit: number): Promise<RelatedRow[]> {
    return await this.db.all(
      sql<RelatedRow>`SELECT n.id, n.title, n.summary, l.type AS relationship_type
         FROM links l JOIN nodes n ON n.id = l.target_id
        WHERE l.tenant_id = ${tenantId} AND l.source_id = ${id} AND n.tenant_id = l.tenant_id
        ORDER BY l.type, n.title, n.id
        LIMIT ${limit}`,
    );
  }

  /** Outgoing rows of many nodes at once (graph walks), at most `limit` rows. */
  async edgesFrom(tenantId: string, sourceIds: string[], limit: number): Promise<EdgeRow[]> {
    if (sourceIds.length === 0) return [];
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<EdgeRow>`SELECT source_id, target_id, type FROM links
            WHERE tenant_id = ${tenantId} AND source_id = ANY(${sourceIds}::text[])
            ORDER BY source_id, target_id
            LIMIT ${limit}`
        : sql<EdgeRow>`SELECT source_id, target_id, type FROM links
            WHERE tenant_id = ${tenantId} AND source_id IN (SELECT value FROM json_each(${JSON.stringify(sourceIds)}))
            ORDER BY source_id, target_id
            LIMIT ${limit}`,
    );
  }
}
