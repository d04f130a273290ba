// Reads that rank nodes for session context and link suggestions: node cards with the
// facts ranking needs, recent nodes, bodies and texts. Their keyword matches come from the
// keyword module, as search's do (services/nodes/keyword-route.ts).
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface NodeCard {
  id: string;
  seq: number;
  title: string;
  summary: string;
  status: 'raw' | 'validated' | 'dismissed';
  updated_at: string;
  created_at: string;
  occurred_at: string | null;
  /** JSON array of the dates the text mentions. */
  mentioned_dates: string;
  /** JSON array of tags. */
  tags: string;
  /** 1 (or true) when the node sits (unarchived) in an active project. */
  active_project: number | boolean;
}

// A node card: the facts ranking needs, over alias n.
const CARD = sql.raw(`n.id, n.seq, n.title, n.summary, n.status, n.updated_at, n.created_at, n.occurred_at, n.mentioned_dates, n.tags,
              EXISTS (SELECT 1 FROM node_para np JOIN para_items p ON p.id = np.para_item_id
                       WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0
                         AND p.tenant_id = n.tenant_id AND p.category = 'projects' AND p.status = 'active') AS active_project`);

// Lookups by id lists are driven from the list (SQLite's CROSS JOIN fixes the join order):
// `tenant_id = ? AND seq IN (json_each)` made SQLite walk every node of the tenant.
export class ContextRepo {
  constructor(private readonly db: Database) {}

  async cards(tenantId: string, ids: string[]): Promise<NodeCard[]> {
    if (ids.length === 0) return [];
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<NodeCard>`SELECT ${CARD} FROM unnest(${ids}::text[]) AS j(value) JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<NodeCard>`SELECT ${CARD} FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }

  async cardsBySeq(tenantId: string, seqs: number[]): Promise<NodeCard[]> {
    if (seqs.length === 0) return [];
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<NodeCard>`SELECT ${CARD} FROM unnest(${seqs}::bigint[]) AS j(value) JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<NodeCard>`SELECT ${CARD} FROM json_each(${JSON.stringify(seqs)}) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }

  /** The bodies of these nodes (only of those a response shows: a captured page can be long). */
  async bodies(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ id: string; body_markdown: string }>`SELECT n.id, n.body_markdown FROM unnest(${ids}::text[]) AS j(value) JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<{ id: string; body_markdown: string }>`SELECT n.id, n.body_markdown FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`,
    );
    return new Map(rows.map((r) => [r.id, r.body_markdown]));
  }

  /** Nodes whose date (occurred_at, else created_at) lies in [after, before), latest first. */
  async inRange(tenantId: string, after: string, before: string, limit: number): Promise<string[]> {
    const rows = await this.db.all(
      sql<{ id: string }>`SELECT id FROM nodes WHERE tenant_id = ${tenantId} AND status != 'dismissed'
            AND coalesce(occurred_at, created_at) >= ${after} AND coalesce(occurred_at, created_at) < ${before}
          ORDER BY coalesce(occurred_at, created_at) DESC, id DESC LIMIT ${limit}`,
    );
    return rows.map((r) => r.id);
  }

  async recent(tenantId: string, status: 'raw' | 'validated', limit: number): Promise<string[]> {
    const rows = await this.db.all(sql<{ id: string }>`SELECT id FROM nodes WHERE tenant_id = ${tenantId} AND status = ${status} ORDER BY updated_at DESC, id DESC LIMIT ${limit}`);
    return rows.map((r) => r.id);
  }

  /** Searchable text of these rows (by seq), for measuring which words they contain. */
  async texts(tenantId: string, seqs: number[]): Promise<Array<{ id: string; seq: number; text: string; bodyText?: string }>> {
    if (seqs.length === 0) return [];
    // The first 20,000 characters of a body are plenty to tell which words a node uses.
    type Row = { id: string; seq: number; text: string; bodyText?: string };
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<Row>`SELECT n.id, seq, title || ' ' || summary || ' ' || tags || ' ' || substr(body_markdown, 1, 20000) AS text,
              trim(summary || chr(10) || substr(body_markdown, 1, 2000)) AS "bodyText"
            FROM unnest(${seqs}::bigint[]) AS j(value) JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<Row>`SELECT n.id, seq, title || ' ' || summary || ' ' || tags || ' ' || substr(body_markdown, 1, 20000) AS text,
              trim(summary || char(10) || substr(body_markdown, 1, 2000)) AS "bodyText"
            FROM json_each(${JSON.stringify(seqs)}) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }
}
