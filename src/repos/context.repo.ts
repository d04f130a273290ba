// Reads that rank nodes for session context and link suggestions: node cards with the
// facts ranking needs, recent nodes, and keyword matches over nodes_fts (rowid = nodes.seq).
import type { Db } from '../db/open.js';

export interface NodeCard {
  id: string;
  seq: number;
  title: string;
  summary: string;
  status: 'raw' | 'validated' | 'dismissed';
  updated_at: string;
  /** 1 when the node sits (unarchived) in an active project. */
  active_project: number;
}

export class ContextRepo {
  private readonly cardsStmt;
  private readonly recentStmt;
  private readonly keywordStmt;
  private readonly termHitsStmt;

  constructor(db: Db) {
    this.cardsStmt = db.prepare(
      `SELECT n.id, n.seq, n.title, n.summary, n.status, n.updated_at,
              EXISTS (SELECT 1 FROM node_para np JOIN para_items p ON p.id = np.para_item_id
                       WHERE np.tenant_id = n.tenant_id AND np.node_id = n.id AND np.archived = 0
                         AND p.tenant_id = n.tenant_id AND p.category = 'projects' AND p.status = 'active') AS active_project
         FROM nodes n
        WHERE n.tenant_id = ? AND n.id IN (SELECT value FROM json_each(?))`,
    );
    this.recentStmt = db
      .prepare('SELECT id FROM nodes WHERE tenant_id = ? AND status = ? ORDER BY updated_at DESC, id DESC LIMIT ?')
      .pluck();
    this.keywordStmt = db.prepare(
      `SELECT n.id, n.seq FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
        WHERE nodes_fts MATCH ? AND n.tenant_id = ? AND n.status != 'dismissed'
        ORDER BY bm25(nodes_fts), n.seq
        LIMIT ?`,
    );
    this.termHitsStmt = db
      .prepare('SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))')
      .pluck();
  }

  cards(tenantId: string, ids: string[]): NodeCard[] {
    if (ids.length === 0) return [];
    return this.cardsStmt.all(tenantId, JSON.stringify(ids)) as NodeCard[];
  }

  recent(tenantId: string, status: 'raw' | 'validated', limit: number): string[] {
    return this.recentStmt.all(tenantId, status, limit) as string[];
  }

  /** Best BM25 matches of an FTS5 query (the caller builds it from quoted terms). */
  keywordMatches(tenantId: string, ftsQuery: string, limit: number): Array<{ id: string; seq: number }> {
    return this.keywordStmt.all(ftsQuery, tenantId, limit) as Array<{ id: string; seq: number }>;
  }

  /** Which of the given rows (by seq) contain one FTS5 phrase. */
  termHits(ftsPhrase: string, seqs: number[]): number[] {
    if (seqs.length === 0) return [];
    return this.termHitsStmt.all(ftsPhrase, JSON.stringify(seqs)) as number[];
  }
}
