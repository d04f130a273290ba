// Keyword search on PostgreSQL: BM25 computed in SQL, exactly as FTS5 computes it
// (search/keyword-score.ts), from the tenant's own statistics kept on write by triggers
// (migration 2): N and the total length in keyword_stats, each term's document frequency in
// keyword_terms. Candidates come from the GIN index on (tenant_id, terms); each candidate's
// weighted term frequency is read from its tf map. Another tenant's nodes change neither
// the candidates nor the statistics. Synchronous, over PgSync, like every repository
// (docs/scale-out.md, Stage 1).
import type { PgSync } from '../../db/pg/sync-client.js';
import { BM25_B, BM25_K1 } from '../../search/keyword-score.js';
import { anyOfTsquery, nodeLexemes, queryLexemes } from '../../search/lexemes.js';
import type { FtsFields } from '../keyword-index.repo.js';

type Queryable = Pick<PgSync, 'query'>;

// One GIN lookup per query term (q.tsq) gives exactly the nodes holding it, and each reads
// one key of its tf map: work in proportion to the postings, not to candidates × terms.
const SEARCH = `
WITH stats AS (
  SELECT docs::float8 AS n, total_len::float8 / greatest(docs, 1) AS avgdl FROM keyword_stats WHERE tenant_id = $1
), q AS (
  SELECT t.term, t.tsq, greatest(ln((stats.n - coalesce(k.df, 0) + 0.5) / (coalesce(k.df, 0) + 0.5)), 1e-6) AS idf
  FROM unnest($2::text[], $3::tsquery[]) AS t(term, tsq) CROSS JOIN stats
  LEFT JOIN keyword_terms k ON k.tenant_id = $1 AND k.term = t.term
)
SELECT x.seq, sum(q.idf * (x.tf * ${BM25_K1 + 1}) / (x.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * x.len / stats.avgdl)))::float8 AS score
FROM stats CROSS JOIN q
CROSS JOIN LATERAL (
  SELECT d.seq, d.len, (d.tf ->> q.term)::float8 AS tf FROM node_keywords d WHERE d.tenant_id = $1 AND d.terms @@ q.tsq
) x
GROUP BY x.seq
ORDER BY score DESC, x.seq
LIMIT $4`;

export class PgKeywordIndex {
  constructor(private readonly db: Queryable) {}

  /** Indexes (or re-indexes) a node's four fields. */
  upsert(tenantId: string, seq: number, f: FtsFields): void {
    const l = nodeLexemes(f);
    this.db.query(
      `INSERT INTO node_keywords (seq, tenant_id, terms, tf, len) VALUES ($1, $2, $3::tsvector, $4::jsonb, $5)
       ON CONFLICT (seq) DO UPDATE SET tenant_id = excluded.tenant_id, terms = excluded.terms, tf = excluded.tf, len = excluded.len`,
      [seq, tenantId, l.tsvector, JSON.stringify(l.tf), l.len],
    );
  }

  /** A new node (NodesRepo's keyword index on PostgreSQL). */
  insert(tenantId: string, seq: number, f: FtsFields): void {
    this.upsert(tenantId, seq, f);
  }

  delete(tenantId: string, seq: number): void {
    this.db.query('DELETE FROM node_keywords WHERE tenant_id = $1 AND seq = $2', [tenantId, seq]);
  }

  /** Top `limit` nodes for the text's content terms, best first; score is FTS5's -bm25 with the field weights. */
  search(tenantId: string, text: string, limit: number): { seq: number; score: number }[] {
    const lexemes = queryLexemes(text);
    if (!lexemes.length) return [];
    const r = this.db.query(SEARCH, [tenantId, lexemes, lexemes.map((l) => anyOfTsquery([l])), limit]);
    return r.rows as { seq: number; score: number }[];
  }

  /** The tenant's N and each lexeme's document frequency (for the absolute keyword score). */
  termStats(tenantId: string, lexemes: string[]): { n: number; df: number[] } {
    const r = this.db.query<{ n: number | string; df: (number | string)[] }>(
      `SELECT coalesce((SELECT docs FROM keyword_stats WHERE tenant_id = $1), 0) AS n,
              coalesce(array_agg(coalesce(k.df, 0) ORDER BY t.i), '{}') AS df
       FROM unnest($2::text[]) WITH ORDINALITY AS t(term, i)
       LEFT JOIN keyword_terms k ON k.tenant_id = $1 AND k.term = t.term`,
      [tenantId, lexemes],
    );
    return { n: Number(r.rows[0].n), df: r.rows[0].df.map(Number) };
  }
}
