// FTS5's own keyword scoring: BM25 over the four fields, weighted, under the filters, in the
// tenant's own FTS5 table (keyword-index.repo.ts). The ranked route (search/keyword/, fed by
// keyword-source.sqlite.ts) ranks queries, filtered ones too; this scores those inside a
// transaction and phrase queries, and answers the counts and statistics.
import type Database from 'better-sqlite3';
import type { SqliteStore } from '../db/store/sqlite-store.js';
import { ftsAnyOfQuoted } from '../search/text.js';
import { FIELD_WEIGHTS } from '../search/keyword-score.js';
import { highlightsColumn } from './highlights.repo.js';
import { KeywordIndexRepo } from './keyword-index.repo.js';
import { syncStatementCache as statementCache, type SyncPrepare as Prepare } from './statement-cache.js';
import { filterSqlText, isFiltered, paraIdsColumn, type NodeFilter, type NodeRowWithPara } from './nodes.repo.js';

export interface KeywordTop {
  hits: { seq: number; score: number }[];
  /** Every node the terms match (exact), when the route that ranked them counted it. */
  total?: number;
  /** termStats() of the same phrases, when the route read them while ranking (one snapshot, no second read). */
  stats?: { n: number; df: number[] };
}

/** What search needs of a keyword engine (FTS5 here; PostgreSQL: pg/search.pg.ts). */
export interface KeywordSearch {
  keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<KeywordTop>;
  keywordCount(tenantId: string, match: string, f: NodeFilter): Promise<number>;
  termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }>;
  /** The page's rows with their PARA ids and their highlights (`marks`: a JSON array of highlight rows). */
  nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]>;
}

export type NodeRowWithMarks = NodeRowWithPara & { marks: string };

export class SearchRepo implements KeywordSearch {
  private readonly bySeqs: Database.Statement;

  readonly keywords: KeywordIndexRepo;
  private readonly prepare: Prepare;

  constructor(private readonly store: SqliteStore) {
    const db = store.handle;
    this.keywords = new KeywordIndexRepo(db);
    this.prepare = statementCache(db);
    this.bySeqs = db.prepare(`SELECT n.*, ${paraIdsColumn('sqlite')}, ${highlightsColumn('sqlite')} FROM json_each(?) j CROSS JOIN nodes n ON n.seq = j.value WHERE n.tenant_id = ?`);
  }

  /** Top `limit` matches, best first; score = -bm25 (higher is better). */
  keywordNow(tenantId: string, match: string, f: NodeFilter, limit: number): { seq: number; score: number }[] {
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    const { sql, params } = filterSqlText(tenantId, f);
    return this.prepare(
        `SELECT n.seq, -bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) AS score
         FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid
         WHERE ${t} MATCH ? AND ${sql}
         ORDER BY bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) LIMIT ?`,
      )
      .all(match, ...params, limit) as { seq: number; score: number }[];
  }

  /**
   * keyword() with its match count. Unfiltered, the tenant's own FTS5 table answers alone:
   * no join to nodes (the table holds only the tenant's live nodes), and the count comes
   * with the ranking instead of a second pass over the postings (25% less time per
   * query on the load bench's notes, same hits and scores).
   */
  private ranked(tenantId: string, match: string, f: NodeFilter, limit: number): KeywordTop {
    const t = this.keywords.table(tenantId);
    if (!t || isFiltered(f)) return { hits: this.keywordNow(tenantId, match, f, limit) };
    const rows = this.prepare(
        `SELECT seq, score, count(*) OVER () AS total
         FROM (SELECT rowid AS seq, -bm25(${t}, ${FIELD_WEIGHTS.join(', ')}) AS score FROM ${t} WHERE ${t} MATCH ?)
         ORDER BY score DESC LIMIT ?`,
      )
      .all(match, limit) as { seq: number; score: number; total: number }[];
    return { hits: rows.map((r) => ({ seq: r.seq, score: r.score })), total: rows[0]?.total ?? 0 };
  }

  /** The best `limit` nodes for these quoted terms OR-ed, as FTS5 ranks them, with the count when unfiltered. */
  keywordTopNow(tenantId: string, phrases: string[], f: NodeFilter, limit: number): KeywordTop {
    const match = ftsAnyOfQuoted(phrases);
    return match ? this.ranked(tenantId, match, f, limit) : { hits: [] };
  }

  /**
   * The tenant's BM25 statistics for these terms (each a quoted FTS5 phrase): N, the number
   * of the tenant's nodes, and each term's document frequency among them.
   */
  termStatsNow(tenantId: string, phrases: string[]): { n: number; df: number[] } {
    const n = this.keywords.rows(tenantId);
    return { n, df: n ? this.keywords.docFrequencies(tenantId, phrases) : phrases.map(() => 0) };
  }

  /** How many nodes the keyword side matches under the filters (total_matches). */
  keywordCountNow(tenantId: string, match: string, f: NodeFilter): number {
    const t = this.keywords.table(tenantId);
    if (!t) return 0;
    const { sql, params } = filterSqlText(tenantId, f);
    return this.prepare(`SELECT count(*) FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid WHERE ${t} MATCH ? AND ${sql}`)
      .pluck()
      .get(match, ...params) as number;
  }

  /** Rows for these seqs (the page being returned), by primary key, with their PARA item ids and highlights. */
  nodesBySeqsNow(tenantId: string, seqs: number[]): NodeRowWithMarks[] {
    if (seqs.length === 0) return [];
    return this.bySeqs.all(JSON.stringify(seqs), tenantId) as NodeRowWithMarks[];
  }

  /**
   * Plain FTS5 BM25 (equal column weights) for a MATCH expression, node ids best first:
   * the baseline `npm run eval` measures every mode against.
   */
  plainBm25Now(tenantId: string, match: string, limit: number): string[] {
    const t = this.keywords.table(tenantId);
    if (!t) return [];
    return this.prepare(
        `SELECT n.id FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid
         WHERE ${t} MATCH ? AND n.tenant_id = ? ORDER BY bm25(${t}) LIMIT ?`,
      )
      .pluck()
      .all(match, tenantId, limit) as string[];
  }

  // The asynchronous contract: each read waits for its turn on the connection (no other
  // caller's transaction open), then runs through FTS5 synchronously as before.
  async keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<KeywordTop> {
    await this.store.turn();
    return this.keywordTopNow(tenantId, phrases, f, limit);
  }

  async keywordCount(tenantId: string, match: string, f: NodeFilter): Promise<number> {
    await this.store.turn();
    return this.keywordCountNow(tenantId, match, f);
  }

  async termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }> {
    await this.store.turn();
    return this.termStatsNow(tenantId, phrases);
  }

  async nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]> {
    await this.store.turn();
    return this.nodesBySeqsNow(tenantId, seqs);
  }

  async plainBm25(tenantId: string, match: string, limit: number): Promise<string[]> {
    await this.store.turn();
    return this.plainBm25Now(tenantId, match, limit);
  }

  async keyword(tenantId: string, match: string, f: NodeFilter, limit: number): Promise<{ seq: number; score: number }[]> {
    await this.store.turn();
    return this.keywordNow(tenantId, match, f, limit);
  }
}
