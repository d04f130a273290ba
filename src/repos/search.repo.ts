// The keyword side of search: FTS5 BM25 over the four fields, weighted, under the filters.
import type { Db } from '../db/open.js';
import { filterSql, type NodeFilter } from './nodes.repo.js';

/** bm25() column weights: title, summary, body, tags. */
export const FIELD_WEIGHTS = [4.0, 2.0, 1.0, 3.0] as const;

export class SearchRepo {
  constructor(private readonly db: Db) {}

  /** Top `limit` matches, best first; score = -bm25 (higher is better). */
  keyword(tenantId: string, match: string, f: NodeFilter, limit: number): { seq: number; score: number }[] {
    const { sql, params } = filterSql(tenantId, f);
    return this.db
      .prepare(
        `SELECT n.seq, -bm25(nodes_fts, ${FIELD_WEIGHTS.join(', ')}) AS score
         FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ? AND ${sql}
         ORDER BY bm25(nodes_fts, ${FIELD_WEIGHTS.join(', ')}) LIMIT ?`,
      )
      .all(match, ...params, limit) as { seq: number; score: number }[];
  }

  /** How many nodes the keyword side matches under the filters (total_matches). */
  keywordCount(tenantId: string, match: string, f: NodeFilter): number {
    const { sql, params } = filterSql(tenantId, f);
    return this.db
      .prepare(`SELECT count(*) FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid WHERE nodes_fts MATCH ? AND ${sql}`)
      .pluck()
      .get(match, ...params) as number;
  }

  /** Of these seqs, the ones that pass the filters (semantic hits are filtered after k-NN). */
  passing(tenantId: string, seqs: number[], f: NodeFilter): Set<number> {
    if (seqs.length === 0) return new Set();
    const { sql, params } = filterSql(tenantId, f);
    const rows = this.db
      .prepare(`SELECT n.seq FROM nodes n WHERE n.seq IN (SELECT value FROM json_each(?)) AND ${sql}`)
      .pluck()
      .all(JSON.stringify(seqs), ...params) as number[];
    return new Set(rows);
  }

  /** Vectors stored for the tenant (bounds the semantic over-fetch). */
  vectorCount(tenantId: string): number {
    return this.db.prepare('SELECT count(*) FROM nodes WHERE tenant_id = ? AND embedded_hash IS NOT NULL').pluck().get(tenantId) as number;
  }
}
