// Highlights on nodes. Every statement filters on tenant_id; a write keyed by source_key
// that is already there does nothing (imports are idempotent).
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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

const FIELDS = ['id', 'tenant_id', 'node_id', 'text', 'note', 'color', 'prefix', 'suffix', 'start_pos', 'end_pos', 'source', 'source_key', 'created_at', 'updated_at'];

/**
 * A node's highlights as a JSON array of rows, oldest first, as a column beside the node
 * (alias n): a search page reads its rows and their highlights in one statement.
 */
export function highlightsColumn(engine: 'sqlite' | 'postgres'): string {
  const pairs = FIELDS.map((f) => `'${f}', h.${f}`).join(', ');
  return engine === 'postgres'
    ? `(SELECT COALESCE(json_agg(json_build_object(${pairs}) ORDER BY h.created_at, h.id), '[]'::json)::text
        FROM highlights h WHERE h.tenant_id = n.tenant_id AND h.node_id = n.id) AS marks`
    : `(SELECT json_group_array(json_object(${pairs})) FROM (SELECT * FROM highlights h
        WHERE h.tenant_id = n.tenant_id AND h.node_id = n.id ORDER BY h.created_at, h.id) h) AS marks`;
}

/**
 * The notes written on a node's highlights, oldest first: the keyword index reads them after
 * the node's text (search/indexed-text.ts). The one place for that order, so a node's writes,
 * SQLite's change overlay and the engine transfers index the same words: for one node...
 */
export const notesOf = (tenantId: string, nodeId: string) =>
  sql<{ note: string }>`SELECT note FROM highlights WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND note IS NOT NULL ORDER BY created_at, id`;
/** ...and as a JSON array beside each node (alias n; SQLite). */
export const NOTES_JSON_SQLITE = `(SELECT json_group_array(h.note) FROM (SELECT note FROM highlights h
   WHERE h.tenant_id = n.tenant_id AND h.node_id = n.id AND h.note IS NOT NULL ORDER BY h.created_at, h.id) h)`;

const COLUMNS = sql.raw('id, tenant_id, node_id, text, note, color, prefix, suffix, start_pos, end_pos, source, source_key, created_at, updated_at');

export class HighlightsRepo {
  constructor(private readonly db: Database) {}

  /** false when a highlight with this source_key is already there (nothing written). */
  async insert(row: HighlightRow): Promise<boolean> {
    return (
      await this.db.run(sql`INSERT INTO highlights (${COLUMNS})
        VALUES (${row.id}, ${row.tenant_id}, ${row.node_id}, ${row.text}, ${row.note}, ${row.color}, ${row.prefix}, ${row.suffix}, ${row.start_pos}, ${row.end_pos},
          ${row.source}, ${row.source_key}, ${row.created_at}, ${row.updated_at})
        ON CONFLICT (tenant_id, source_key) DO NOTHING`)
    ).changes > 0;
  }
  async get(tenantId: string, nodeId: string, id: string): Promise<HighlightRow | undefined> {
    return await this.db.one(sql<HighlightRow>`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND id = ${id}`);
  }
  async byNode(tenantId: string, nodeId: string): Promise<HighlightRow[]> {
    return await this.db.all(sql<HighlightRow>`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} ORDER BY created_at, id`);
  }
  /** The ids go as one parameter (one statement whatever their number): an array on PostgreSQL, a JSON array SQLite reads back as a table. */
  async byNodes(tenantId: string, nodeIds: string[]): Promise<HighlightRow[]> {
    if (!nodeIds.length) return [];
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<HighlightRow>`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ${tenantId} AND node_id = ANY(${nodeIds}::text[]) ORDER BY node_id, created_at, id`
        : sql<HighlightRow>`SELECT ${COLUMNS} FROM highlights WHERE tenant_id = ${tenantId} AND node_id IN (SELECT j.value FROM json_each(${JSON.stringify(nodeIds)}) j) ORDER BY node_id, created_at, id`,
    );
  }
  async hasKey(tenantId: string, key: string): Promise<boolean> {
    return (await this.db.value(sql`SELECT 1 FROM highlights WHERE tenant_id = ${tenantId} AND source_key = ${key}`)) !== undefined;
  }
  async update(row: Pick<HighlightRow, 'tenant_id' | 'node_id' | 'id' | 'note' | 'color' | 'updated_at'>): Promise<void> {
    await this.db.run(sql`UPDATE highlights SET note = ${row.note}, color = ${row.color}, updated_at = ${row.updated_at}
      WHERE tenant_id = ${row.tenant_id} AND node_id = ${row.node_id} AND id = ${row.id}`);
  }
  async delete(tenantId: string, nodeId: string, id: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM highlights WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND id = ${id}`)).changes > 0;
  }
}
