// Nodes, their keyword index rows (the tenant's FTS5 table shares the integer rowid `seq`) and their
// PARA associations as seen on the node.
import type { Database, Engine } from '../db/store/contract.js';
import { type Query, sql } from '../db/store/sql.js';
import type { FtsFields } from './keyword-index.repo.js';
import { indexedBody } from '../search/indexed-text.js';
import { highlightsColumn, notesOf } from './highlights.repo.js';

export interface NodeRow {
  seq: number;
  id: string;
  tenant_id: string;
  title: string;
  summary: string;
  body_markdown: string;
  tags: string; // JSON
  status: 'raw' | 'validated' | 'dismissed';
  created_at: string;
  updated_at: string;
  /** When what the node describes happened (ISO 8601 UTC); null when not said. */
  occurred_at: string | null;
  /** JSON array of the dates the text mentions (absent on rows read before step 11's column). */
  mentioned_dates?: string;
  embedded_hash: string | null;
}

/** A node row as pages of results read it: with its PARA item ids (JSON array, in filing order), in the same statement. */
export type NodeRowWithPara = NodeRow & { para_ids: string };

/** ...and its highlights (`marks`: a JSON array of highlight rows): a page of search results. */
export type NodeRowWithMarks = NodeRowWithPara & { marks: string };

/**
 * The column that reads a node's PARA item ids beside its row (`n` is the node), in the
 * order GET /nodes/{id} lists them: one statement per page, not two.
 */
export function paraIdsColumn(engine: Engine): string {
  return engine === 'postgres'
    ? `(SELECT COALESCE(json_agg(p.para_item_id ORDER BY p.created_at, p.para_item_id), '[]'::json)::text
        FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0) AS para_ids`
    : `(SELECT json_group_array(para_item_id) FROM (SELECT p.para_item_id FROM node_para p
        WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0 ORDER BY p.created_at, p.para_item_id)) AS para_ids`;
}

/** A node's visible PARA associations with where they came from. */
export interface ParaAssignmentRow {
  para_item_id: string;
  source: 'user' | 'auto';
  score: number | null;
  method: string | null;
}

/** The node's visible PARA associations as a JSON array, in para_item_ids order (one statement with the node). */
function assignmentsColumn(engine: Engine): string {
  return engine === 'postgres'
    ? `(SELECT COALESCE(json_agg(json_build_object('para_item_id', p.para_item_id, 'source', p.source, 'score', p.score, 'method', p.method)
          ORDER BY p.created_at, p.para_item_id), '[]'::json)::text
        FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0) AS assignments`
    : `(SELECT json_group_array(json_object('para_item_id', para_item_id, 'source', source, 'score', score, 'method', method))
        FROM (SELECT p.para_item_id, p.source, p.score, p.method FROM node_para p
        WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0 ORDER BY p.created_at, p.para_item_id)) AS assignments`;
}

/** A node's own dates and the dates its text mentions (JSON array). */
export interface NodeDates {
  seq: number;
  occurred_at: string | null;
  created_at: string;
  mentioned_dates: string | null;
}

export interface NodeFilter {
  status?: string;
  /** Every status but this one (link suggestions leave dismissed nodes out). */
  status_not?: string;
  para_item_id?: string;
  orphan?: boolean;
  /** Every one of these tags must be on the node. */
  tags?: string[];
  /** ISO UTC instants: updated_at >= updated_after and < updated_before. */
  updated_after?: string;
  updated_before?: string;
  /** ISO UTC instants on the node's date (occurred_at, else created_at): >= occurred_after and < occurred_before. */
  occurred_after?: string;
  occurred_before?: string;
}

/** Whether any filter narrows the tenant's nodes (the fast unfiltered paths need none). */
export function isFiltered(f: NodeFilter): boolean {
  return f.status !== undefined || f.status_not !== undefined || f.para_item_id !== undefined || f.orphan !== undefined || (f.tags?.length ?? 0) > 0 || f.updated_after !== undefined || f.updated_before !== undefined || f.occurred_after !== undefined || f.occurred_before !== undefined;
}

/**
 * The condition (over alias n) for the filters shared by list and search, in the engine's
 * SQL: a node's tags are a JSON array, read by SQLite's json_each or PostgreSQL's
 * json_array_elements_text.
 */
export function filterSql(engine: Engine, tenantId: string, f: NodeFilter): Query {
  const parts: Query[] = [sql`n.tenant_id = ${tenantId}`];
  if (f.status) parts.push(sql`n.status = ${f.status}`);
  if (f.status_not) parts.push(sql`n.status != ${f.status_not}`);
  if (f.para_item_id) {
    parts.push(sql`EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.para_item_id = ${f.para_item_id} AND p.archived = 0)`);
  }
  if (f.orphan === true) parts.push(sql`NOT EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0)`);
  if (f.orphan === false) parts.push(sql`EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0)`);
  for (const t of f.tags ?? []) {
    parts.push(
      engine === 'postgres'
        ? sql`EXISTS (SELECT 1 FROM json_array_elements_text(n.tags::json) AS t(value) WHERE t.value = ${t})`
        : sql`EXISTS (SELECT 1 FROM json_each(n.tags) t WHERE t.value = ${t})`,
    );
  }
  if (f.updated_after) parts.push(sql`n.updated_at >= ${f.updated_after}`);
  if (f.updated_before) parts.push(sql`n.updated_at < ${f.updated_before}`);
  if (f.occurred_after) parts.push(sql`coalesce(n.occurred_at, n.created_at) >= ${f.occurred_after}`);
  if (f.occurred_before) parts.push(sql`coalesce(n.occurred_at, n.created_at) < ${f.occurred_before}`);
  return sql.join(parts, sql` AND `);
}

/** What a node's writes need of the keyword index. */
export interface NodeKeywordIndex {
  insert(tenantId: string, seq: number, f: FtsFields): Promise<void>;
  delete(tenantId: string, seq: number): Promise<void>;
  /**
   * Runs the node's INSERT … RETURNING seq and indexes the new node in the same statement
   * (PostgreSQL: one round trip, not two); returns the seq. Absent where a statement each costs nothing.
   */
  insertWithNode?(node: Query<{ seq: number }>, tenantId: string, f: FtsFields): Promise<number>;
}

export class NodesRepo {
  /** `keywords`: the engine's keyword index (SQLite: the tenant's FTS5 table; PostgreSQL passes its own). */
  constructor(
    private readonly db: Database,
    private readonly keywords: NodeKeywordIndex,
  ) {}

  /** The dates a node's text mentions (JSON array of 'YYYY-MM-DD' / 'YYYY-MM' / 'YYYY'). */
  async setMentionedDates(tenantId: string, id: string, dates: string[]): Promise<void> {
    await this.db.run(sql`UPDATE nodes SET mentioned_dates = ${JSON.stringify(dates)} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /** Lengths (characters of title, summary and body) of the tenant's latest `sample` nodes. */
  async textLengths(tenantId: string, sample: number): Promise<number[]> {
    const rows = await this.db.all(
      sql<{ len: number }>`SELECT length(title) + length(summary) + length(body_markdown) AS len FROM nodes WHERE tenant_id = ${tenantId} ORDER BY seq DESC LIMIT ${sample}`,
    );
    return rows.map((r) => Number(r.len));
  }

  /** A new node; `occurred_at` defaults to none. */
  async insert(row: Omit<NodeRow, 'seq' | 'embedded_hash' | 'occurred_at'> & { occurred_at?: string | null }): Promise<number> {
    const insert = sql<{ seq: number }>`INSERT INTO nodes (id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at, occurred_at)
       VALUES (${row.id}, ${row.tenant_id}, ${row.title}, ${row.summary}, ${row.body_markdown}, ${row.tags}, ${row.status}, ${row.created_at}, ${row.updated_at}, ${row.occurred_at ?? null})
       RETURNING seq`;
    if (this.keywords.insertWithNode) return await this.keywords.insertWithNode(insert, row.tenant_id, ftsFields(row));
    const seq = Number((await this.db.one(insert))!.seq);
    await this.keywords.insert(row.tenant_id, seq, ftsFields(row));
    return seq;
  }

  async update(row: NodeRow, reindex: boolean): Promise<void> {
    await this.db.run(
      sql`UPDATE nodes SET title = ${row.title}, summary = ${row.summary}, body_markdown = ${row.body_markdown}, tags = ${row.tags},
         status = ${row.status}, updated_at = ${row.updated_at}, occurred_at = ${row.occurred_at}, embedded_hash = ${row.embedded_hash}
       WHERE tenant_id = ${row.tenant_id} AND id = ${row.id}`,
    );
    if (reindex) await this.reindex(row);
  }

  /** Indexes the node's words again (its highlights' notes changed: they are part of them). */
  async reindexKeywords(tenantId: string, id: string): Promise<void> {
    const row = await this.get(tenantId, id);
    if (row) await this.reindex(row);
  }

  private async reindex(row: NodeRow): Promise<void> {
    const notes = await this.db.all(notesOf(row.tenant_id, row.id));
    await this.keywords.delete(row.tenant_id, row.seq);
    await this.keywords.insert(row.tenant_id, row.seq, ftsFields(row, notes.map((n) => n.note)));
  }

  async delete(tenantId: string, row: NodeRow): Promise<void> {
    await this.keywords.delete(tenantId, row.seq);
    await this.db.run(sql`DELETE FROM nodes WHERE tenant_id = ${tenantId} AND id = ${row.id}`);
  }

  async get(tenantId: string, id: string): Promise<NodeRow | undefined> {
    return await this.db.one(sql<NodeRow>`SELECT * FROM nodes WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /**
   * The node with its PARA associations and, when asked (`marks`), its highlights as a JSON
   * array (highlights.repo.ts; '[]' otherwise): GET /nodes/{id} in one round trip, not three.
   */
  async getWithAssignments(tenantId: string, id: string, marks = false): Promise<(NodeRow & { assignments: ParaAssignmentRow[]; marks: string }) | undefined> {
    const highlights = marks ? highlightsColumn(this.db.engine) : `'[]' AS marks`;
    const row = await this.db.one(
      sql<NodeRow & { assignments: string; marks: string }>`SELECT n.*, ${sql.raw(assignmentsColumn(this.db.engine))}, ${sql.raw(highlights)} FROM nodes n WHERE n.tenant_id = ${tenantId} AND n.id = ${id}`,
    );
    return row ? { ...row, assignments: JSON.parse(row.assignments) as ParaAssignmentRow[] } : undefined;
  }

  /** Rows for these seqs, in no particular order. */
  async getBySeqs(tenantId: string, seqs: number[]): Promise<NodeRow[]> {
    return await this.bySeqs<NodeRow>(tenantId, seqs, 'n.*');
  }

  /** A page of search results: the rows for these seqs with their PARA item ids and highlights, in no particular order. */
  async pageBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]> {
    return await this.bySeqs<NodeRowWithMarks>(tenantId, seqs, `n.*, ${paraIdsColumn(this.db.engine)}, ${highlightsColumn(this.db.engine)}`);
  }

  private async bySeqs<T>(tenantId: string, seqs: number[], columns: string): Promise<T[]> {
    if (seqs.length === 0) return [];
    // Driven from the list: with `tenant_id = ? AND seq IN (json_each)` SQLite walked every
    // node of the tenant instead (CROSS JOIN fixes its join order).
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<T>`SELECT ${sql.raw(columns)} FROM unnest(${seqs}::bigint[]) AS j(value) JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<T>`SELECT ${sql.raw(columns)} FROM json_each(${JSON.stringify(seqs)}) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }

  /** The dates of these nodes (their own, and those their text mentions): what a period in a query orders by. */
  async datesBySeqs(tenantId: string, seqs: number[]): Promise<NodeDates[]> {
    if (seqs.length === 0) return [];
    type Dates = NodeDates;
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<Dates>`SELECT n.seq, n.occurred_at, n.created_at, n.mentioned_dates FROM unnest(${seqs}::bigint[]) AS j(value) JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<Dates>`SELECT n.seq, n.occurred_at, n.created_at, n.mentioned_dates FROM json_each(${JSON.stringify(seqs)}) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }

  async getByIds(tenantId: string, ids: string[]): Promise<NodeRow[]> {
    if (ids.length === 0) return [];
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<NodeRow>`SELECT n.* FROM unnest(${ids}::text[]) AS j(value) JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`
        : sql<NodeRow>`SELECT n.* FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ${tenantId}`,
    );
  }

  async paraItemIds(tenantId: string, nodeId: string): Promise<string[]> {
    const rows = await this.db.all(
      sql<{ para_item_id: string }>`SELECT para_item_id FROM node_para WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND archived = 0 ORDER BY created_at, para_item_id`,
    );
    return rows.map((r) => r.para_item_id);
  }

  /** The visible associations become exactly `ids` (all marked as the user's choice). */
  async setUserParaItems(tenantId: string, nodeId: string, ids: string[], at: string): Promise<void> {
    await this.db.run(
      this.db.engine === 'postgres'
        ? sql`DELETE FROM node_para WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND archived = 0
            AND NOT (para_item_id = ANY(${ids}::text[]))`
        : sql`DELETE FROM node_para WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} AND archived = 0
            AND para_item_id NOT IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
    // A user's choice replaces an automatic one for the same pair and is never overridden.
    for (const pid of ids) {
      await this.db.run(
        sql`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, created_at) VALUES (${tenantId}, ${nodeId}, ${pid}, 'user', ${at})
         ON CONFLICT (node_id, para_item_id) DO UPDATE SET source = 'user', score = NULL, method = NULL, model = NULL`,
      );
    }
  }

  /** Which of these ids are PARA items of the tenant, with their status. */
  async paraItemsOf(tenantId: string, ids: string[]): Promise<{ id: string; status: string }[]> {
    return await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ id: string; status: string }>`SELECT id, status FROM para_items WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::text[])`
        : sql<{ id: string; status: string }>`SELECT id, status FROM para_items WHERE tenant_id = ${tenantId} AND id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
  }

  async list(tenantId: string, f: NodeFilter, limit: number, offset: number): Promise<{ rows: NodeRowWithPara[]; total: number }> {
    const where = filterSql(this.db.engine, tenantId, f);
    const count = sql<{ total: number }>`SELECT count(*) FROM nodes n WHERE ${where}`;
    // The page and the count in one statement (on PostgreSQL a round trip each): the count is
    // an uncorrelated subquery, run once. Past the last page there is no row to carry it.
    const rows = await this.db.all(
      sql<NodeRowWithPara & { total: number | string }>`WITH page AS (SELECT n.seq FROM nodes n WHERE ${where} ORDER BY n.updated_at DESC, n.seq DESC LIMIT ${limit} OFFSET ${offset})
        SELECT n.*, ${sql.raw(paraIdsColumn(this.db.engine))}, (${count}) AS total
        FROM page JOIN nodes n ON n.seq = page.seq ORDER BY n.updated_at DESC, n.seq DESC`,
    );
    const total = Number(rows.length ? rows[0].total : ((await this.db.value<number>(count)) ?? 0));
    return { rows: rows.map(({ total: _, ...r }) => r), total };
  }

  /** Of these seqs, the ones that pass the filters (semantic hits are filtered after k-NN), with their node ids. */
  async passing(tenantId: string, seqs: number[], f: NodeFilter): Promise<Map<number, string>> {
    if (seqs.length === 0) return new Map();
    const where = filterSql(this.db.engine, tenantId, f);
    const rows = await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ seq: number; id: string }>`SELECT n.seq, n.id FROM unnest(${seqs}::bigint[]) AS j(value) JOIN nodes n ON n.seq = j.value WHERE ${where}`
        : // CROSS JOIN keeps the plan "for each seq, look up its row": left to itself SQLite
          // walks every node of the tenant through an index and probes a bloom filter.
          sql<{ seq: number; id: string }>`SELECT n.seq, n.id FROM json_each(${JSON.stringify(seqs)}) j CROSS JOIN nodes n ON n.seq = j.value WHERE ${where}`,
    );
    return new Map(rows.map((r) => [r.seq, r.id]));
  }

  async markEmbedded(tenantId: string, id: string, hash: string): Promise<void> {
    await this.db.run(sql`UPDATE nodes SET embedded_hash = ${hash} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }

  /** After a model change every vector is stale (install-wide: the vector space is shared). */
  async clearAllEmbedded(): Promise<void> {
    await this.db.run(sql`UPDATE nodes SET embedded_hash = NULL`);
  }

  /** Nodes of every tenant without a vector, in seq order after `afterSeq` (a maintenance read: the model's backlog). */
  async unembedded(limit: number, afterSeq = 0): Promise<{ tenant_id: string; id: string; seq: number }[]> {
    const rows = await this.db.all(sql<{ tenant_id: string; id: string; seq: number | string }>`SELECT tenant_id, id, seq FROM nodes WHERE embedded_hash IS NULL AND seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`);
    return rows.map((r) => ({ tenant_id: r.tenant_id, id: r.id, seq: Number(r.seq) }));
  }
}

/** The node's keyword fields; a new node has no highlights, so no notes yet. */
function ftsFields(row: { title: string; summary: string; body_markdown: string; tags: string }, notes: string[] = []) {
  return { title: row.title, summary: row.summary, body: indexedBody(row.body_markdown, notes), tags: (JSON.parse(row.tags) as string[]).join(' ') };
}
