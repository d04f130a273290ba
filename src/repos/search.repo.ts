// The keyword side of search: FTS5 BM25 over the four fields, weighted, under the filters,
// in the tenant's own FTS5 table (keyword-index.repo.ts).
import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { KeywordIndexRepo } from './keyword-index.repo.js';
import { filterSql, type NodeFilter, type NodeRow } from './nodes.repo.js';

/** bm25() column weights: title, summary, body, tags. */
export const FIELD_WEIGHTS = [4.0, 2.0, 1.0, 3.0] as const;

export class SearchRepo {
  private readonly bySeqs: Database.Statement;

  readonly keywords: KeywordIndexRepo;

  constructor(private readonly db: Db) {
    this.keywords = new KeywordIndexRepo(db);
    this.bySeqs = db.prepare('SELECT n.* FROM json_each(?) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ?');
  }

  /** Top `limit` matches, best first; score = -bm25 (higher is better). */
  keyword(tenantId: string, match: string, f: NodeFilter, limit: number): { seq: number; score: number }[] {
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    const { sql, params } = filterSql(tenantId, f);
    return this.db
      .prepare(
        `SELECT n.seq, -bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) AS score
         FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid
         WHERE ${t} MATCH ? AND ${sql}
         ORDER BY bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) LIMIT ?`,
      )
      .all(match, ...params, limit) as { seq: number; score: number }[];
  }

  /**
   * The tenant's BM25 statistics for these terms (each a quoted FTS5 phrase): N, the number
   * of the tenant's nodes, and each term's document frequency among them.
   */
  termStats(tenantId: string, phrases: string[]): { n: number; df: number[] } {
    const n = this.keywords.rows(tenantId);
    return { n, df: n ? this.keywords.docFrequencies(tenantId, phrases) : phrases.map(() => 0) };
  }

  /** How many nodes the keyword side matches under the filters (total_matches). */
  keywordCount(tenantId: string, match: string, f: NodeFilter): number {
    const t = this.keywords.table(tenantId);
    if (!t) return 0;
    const { sql, params } = filterSql(tenantId, f);
    return this.db
      .prepare(`SELECT count(*) FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid WHERE ${t} MATCH ? AND ${sql}`)
      .pluck()
      .get(match, ...params) as number;
  }

  /** Of these seqs, the ones that pass the filters (semantic hits are filtered after k-NN), with their node ids. */
  passing(tenantId: string, seqs: number[], f: NodeFilter): Map<number, string> {
    if (seqs.length === 0) return new Map();
    const { sql, params } = filterSql(tenantId, f);
    const rows = this.db
      // CROSS JOIN keeps the plan "for each seq, look up its row": left to itself SQLite
      // walks every node of the tenant through an index and probes a bloom filter.
      .prepare(`SELECT n.seq, n.id FROM json_each(?) j CROSS JOIN nodes n ON n.seq = j.value WHERE ${sql}`)
      .raw()
      .all(JSON.stringify(seqs), ...params) as [number, string][];
    return new Map(rows);
  }

  /** Rows for these seqs (the page being returned), by primary key. */
  nodesBySeqs(tenantId: string, seqs: number[]): NodeRow[] {
    if (seqs.length === 0) return [];
    return this.bySeqs.all(JSON.stringify(seqs), tenantId) as NodeRow[];
  }

  // The vec0 table (created by VectorsRepo once the model is known) read in bulk for the
  // in-memory quantised index; prepared on first use because the table may not exist yet.
  private vecAll: Database.Statement | undefined;
  private vecSome: Database.Statement | undefined;

  /** Every stored vector of the tenant with its node. */
  vectorRows(tenantId: string): Iterable<{ seq: number; id: string; embedding: Buffer }> {
    this.vecAll ??= this.db.prepare(
      `SELECT v.rowid AS seq, n.id, v.embedding FROM node_vectors v JOIN nodes n ON n.seq = v.rowid AND n.tenant_id = v.tenant_id
       WHERE v.tenant_id = ?`,
    );
    return this.vecAll.iterate(tenantId) as Iterable<{ seq: number; id: string; embedding: Buffer }>;
  }

  /** The stored vectors of these nodes. */
  vectorRowsFor(tenantId: string, nodeIds: string[]): { seq: number; id: string; embedding: Buffer }[] {
    this.vecSome ??= this.db.prepare(
      `SELECT n.seq, n.id, v.embedding FROM nodes n JOIN node_vectors v ON v.rowid = n.seq
       WHERE n.tenant_id = ? AND n.id IN (SELECT value FROM json_each(?)) AND v.tenant_id = ?`,
    );
    return this.vecSome.all(tenantId, JSON.stringify(nodeIds), tenantId) as { seq: number; id: string; embedding: Buffer }[];
  }

  /**
   * Plain FTS5 BM25 (equal column weights) for a MATCH expression, node ids best first:
   * the baseline `npm run eval` measures every mode against.
   */
  plainBm25(tenantId: string, match: string, limit: number): string[] {
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    return this.db
      .prepare(
        `SELECT n.id FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid
         WHERE ${t} MATCH ? AND n.tenant_id = ? ORDER BY bm25(${t}) LIMIT ?`,
      )
      .pluck()
      .all(match, tenantId, limit) as string[];
  }
}
