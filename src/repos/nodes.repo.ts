// Nodes, their keyword index rows (the tenant's FTS5 table shares the integer rowid `seq`) and their
// PARA associations as seen on the node.
import type { Database } from '../db/store/contract.js';
import type { FtsFields } from './keyword-index.repo.js';
import { statementCache, type Prepare } from './statement-cache.js';

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

export interface NodeFilter {
  status?: string;
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
  return f.status !== undefined || f.para_item_id !== undefined || f.orphan !== undefined || (f.tags?.length ?? 0) > 0 || f.updated_after !== undefined || f.updated_before !== undefined || f.occurred_after !== undefined || f.occurred_before !== undefined;
}

/** SQL fragment (over alias n) and params for the filters shared by list and search. */
export function filterSql(tenantId: string, f: NodeFilter): { sql: string; params: unknown[] } {
  const parts = ['n.tenant_id = ?'];
  const params: unknown[] = [tenantId];
  if (f.status) {
    parts.push('n.status = ?');
    params.push(f.status);
  }
  if (f.para_item_id) {
    parts.push('EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.para_item_id = ? AND p.archived = 0)');
    params.push(f.para_item_id);
  }
  if (f.orphan !== undefined) {
    parts.push(`${f.orphan ? 'NOT ' : ''}EXISTS (SELECT 1 FROM node_para p WHERE p.tenant_id = n.tenant_id AND p.node_id = n.id AND p.archived = 0)`);
  }
  for (const t of f.tags ?? []) {
    parts.push('EXISTS (SELECT 1 FROM json_each(n.tags) t WHERE t.value = ?)');
    params.push(t);
  }
  if (f.updated_after) {
    parts.push('n.updated_at >= ?');
    params.push(f.updated_after);
  }
  if (f.updated_before) {
    parts.push('n.updated_at < ?');
    params.push(f.updated_before);
  }
  if (f.occurred_after) {
    parts.push('coalesce(n.occurred_at, n.created_at) >= ?');
    params.push(f.occurred_after);
  }
  if (f.occurred_before) {
    parts.push('coalesce(n.occurred_at, n.created_at) < ?');
    params.push(f.occurred_before);
  }
  return { sql: parts.join(' AND '), params };
}

/** What a node's writes need of the keyword index. */
export interface NodeKeywordIndex {
  insert(tenantId: string, seq: number, f: FtsFields): Promise<void>;
  delete(tenantId: string, seq: number): Promise<void>;
}

export class NodesRepo {
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly byIdStmt;
  private readonly keywords: NodeKeywordIndex;
  private readonly paraOfNode;
  private readonly paraVisibleDelete;
  private readonly paraUpsertUser;
  private readonly activeParaIds;
  private readonly setEmbedded;
  private readonly clearEmbeddedAll;
  private readonly bySeqsStmt;
  private readonly byIdsStmt;

  private readonly prepare: Prepare;

  /** `keywords`: the engine's keyword index (SQLite: the tenant's FTS5 table; PostgreSQL passes its own). */
  constructor(
    db: Database,
    keywords: NodeKeywordIndex,
  ) {
    this.prepare = statementCache(db);
    this.insertStmt = db.prepare(
      `INSERT INTO nodes (id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at, occurred_at)
       VALUES (@id, @tenant_id, @title, @summary, @body_markdown, @tags, @status, @created_at, @updated_at, @occurred_at)
       RETURNING seq`,
    );
    this.updateStmt = db.prepare(
      `UPDATE nodes SET title = @title, summary = @summary, body_markdown = @body_markdown, tags = @tags,
         status = @status, updated_at = @updated_at, occurred_at = @occurred_at, embedded_hash = @embedded_hash
       WHERE tenant_id = @tenant_id AND id = @id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM nodes WHERE tenant_id = ? AND id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM nodes WHERE tenant_id = ? AND id = ?');
    this.keywords = keywords;
    this.paraOfNode = db.prepare(
      'SELECT para_item_id FROM node_para WHERE tenant_id = ? AND node_id = ? AND archived = 0 ORDER BY created_at, para_item_id',
    ).pluck();
    this.paraVisibleDelete = db.prepare(
      'DELETE FROM node_para WHERE tenant_id = ? AND node_id = ? AND archived = 0 AND para_item_id NOT IN (SELECT value FROM json_each(?))',
    );
    // A user's choice replaces an automatic one for the same pair and is never overridden.
    this.paraUpsertUser = db.prepare(
      `INSERT INTO node_para (tenant_id, node_id, para_item_id, source, created_at) VALUES (?, ?, ?, 'user', ?)
       ON CONFLICT(node_id, para_item_id) DO UPDATE SET source = 'user', score = NULL, method = NULL, model = NULL`,
    );
    this.activeParaIds = db.prepare(
      "SELECT id, status FROM para_items WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))",
    );
    this.setEmbedded = db.prepare('UPDATE nodes SET embedded_hash = ? WHERE tenant_id = ? AND id = ?');
    this.clearEmbeddedAll = db.prepare('UPDATE nodes SET embedded_hash = NULL');
    // Driven from the id list (CROSS JOIN fixes the join order): with `tenant_id = ? AND
    // seq IN (json_each)` SQLite walked every node of the tenant instead.
    // json_each's values are text on PostgreSQL: the cast (a no-op here) lets both compare seqs.
    this.bySeqsStmt = db.prepare('SELECT n.* FROM json_each(?) j CROSS JOIN nodes n ON n.seq = CAST(j.value AS BIGINT) WHERE n.tenant_id = ?');
    this.byIdsStmt = db.prepare('SELECT n.* FROM json_each(?) j CROSS JOIN nodes n ON n.id = j.value WHERE n.tenant_id = ?');
  }

  /** The dates a node's text mentions (JSON array of 'YYYY-MM-DD' / 'YYYY-MM' / 'YYYY'). */
  async setMentionedDates(tenantId: string, id: string, dates: string[]): Promise<void> {
    await this.prepare('UPDATE nodes SET mentioned_dates = ? WHERE tenant_id = ? AND id = ?').run(JSON.stringify(dates), tenantId, id);
  }

  /** Lengths (characters of title, summary and body) of the tenant's latest `sample` nodes. */
  async textLengths(tenantId: string, sample: number): Promise<number[]> {
    return (await this.prepare('SELECT length(title) + length(summary) + length(body_markdown) FROM nodes WHERE tenant_id = ? ORDER BY seq DESC LIMIT ?')
      .pluck()
      .all(tenantId, sample))
      .map(Number);
  }

  /** A new node; `occurred_at` defaults to none. */
  async insert(row: Omit<NodeRow, 'seq' | 'embedded_hash' | 'occurred_at'> & { occurred_at?: string | null }): Promise<number> {
    const seq = Number((await this.insertStmt.get({ ...row, occurred_at: row.occurred_at ?? null }) as { seq: number }).seq);
    await this.keywords.insert(row.tenant_id, seq, ftsFields(row));
    return seq;
  }

  async update(row: NodeRow, reindex: boolean): Promise<void> {
    await this.updateStmt.run(row);
    if (reindex) {
      await this.keywords.delete(row.tenant_id, row.seq);
      await this.keywords.insert(row.tenant_id, row.seq, ftsFields(row));
    }
  }

  async delete(tenantId: string, row: NodeRow): Promise<void> {
    await this.keywords.delete(tenantId, row.seq);
    await this.deleteStmt.run(tenantId, row.id);
  }

  async get(tenantId: string, id: string): Promise<NodeRow | undefined> {
    return await this.byIdStmt.get(tenantId, id) as NodeRow | undefined;
  }

  /** Rows for these seqs, in no particular order. */
  async getBySeqs(tenantId: string, seqs: number[]): Promise<NodeRow[]> {
    return seqs.length === 0 ? [] : (await this.bySeqsStmt.all(JSON.stringify(seqs), tenantId) as NodeRow[]);
  }

  async getByIds(tenantId: string, ids: string[]): Promise<NodeRow[]> {
    return ids.length === 0 ? [] : (await this.byIdsStmt.all(JSON.stringify(ids), tenantId) as NodeRow[]);
  }

  async paraItemIds(tenantId: string, nodeId: string): Promise<string[]> {
    return await this.paraOfNode.all(tenantId, nodeId) as string[];
  }

  /** Visible PARA ids for many nodes at once (search results). */
  async paraItemIdsMany(tenantId: string, nodeIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (nodeIds.length === 0) return out;
    const rows = await this.prepare(
        `SELECT node_id, para_item_id FROM node_para WHERE tenant_id = ? AND archived = 0
         AND node_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, para_item_id`,
      )
      .all(tenantId, JSON.stringify(nodeIds)) as { node_id: string; para_item_id: string }[];
    for (const r of rows) (out.get(r.node_id) ?? out.set(r.node_id, []).get(r.node_id)!).push(r.para_item_id);
    return out;
  }

  /** The visible associations become exactly `ids` (all marked as the user's choice). */
  async setUserParaItems(tenantId: string, nodeId: string, ids: string[], at: string): Promise<void> {
    await this.paraVisibleDelete.run(tenantId, nodeId, JSON.stringify(ids));
    for (const pid of ids) await this.paraUpsertUser.run(tenantId, nodeId, pid, at);
  }

  /** Which of these ids are PARA items of the tenant, with their status. */
  async paraItemsOf(tenantId: string, ids: string[]): Promise<{ id: string; status: string }[]> {
    return await this.activeParaIds.all(tenantId, JSON.stringify(ids)) as { id: string; status: string }[];
  }

  async list(tenantId: string, f: NodeFilter, limit: number, offset: number): Promise<{ rows: NodeRow[]; total: number }> {
    const { sql, params } = filterSql(tenantId, f);
    const total = await this.prepare(`SELECT count(*) FROM nodes n WHERE ${sql}`).pluck().get(...params) as number;
    const rows = await this.prepare(`SELECT n.* FROM nodes n WHERE ${sql} ORDER BY n.updated_at DESC, n.seq DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as NodeRow[];
    return { rows, total };
  }

  /** Of these seqs, the ones that pass the filters (semantic hits are filtered after k-NN), with their node ids. */
  async passing(tenantId: string, seqs: number[], f: NodeFilter): Promise<Map<number, string>> {
    if (seqs.length === 0) return new Map();
    const { sql, params } = filterSql(tenantId, f);
    const rows = await this
      // CROSS JOIN keeps the plan "for each seq, look up its row": left to itself SQLite
      // walks every node of the tenant through an index and probes a bloom filter.
      .prepare(`SELECT n.seq, n.id FROM json_each(?) j CROSS JOIN nodes n ON n.seq = CAST(j.value AS BIGINT) WHERE ${sql}`)
      .raw()
      .all(JSON.stringify(seqs), ...params) as [number, string][];
    return new Map(rows);
  }

  async markEmbedded(tenantId: string, id: string, hash: string): Promise<void> {
    await this.setEmbedded.run(hash, tenantId, id);
  }

  /** After a model change every vector is stale (install-wide: the vector space is shared). */
  async clearAllEmbedded(): Promise<void> {
    await this.clearEmbeddedAll.run();
  }

  /** Nodes with no vector for the current text, oldest first (re-embedding backlog). */
  async unembedded(limit: number): Promise<{ tenant_id: string; id: string }[]> {
    return await this.prepare('SELECT tenant_id, id FROM nodes WHERE embedded_hash IS NULL ORDER BY seq LIMIT ?')
      .all(limit) as { tenant_id: string; id: string }[];
  }
}

function ftsFields(row: { title: string; summary: string; body_markdown: string; tags: string }) {
  return { title: row.title, summary: row.summary, body: row.body_markdown, tags: (JSON.parse(row.tags) as string[]).join(' ') };
}
