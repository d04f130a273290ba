// The keyword module's reads on PostgreSQL (search/keyword/source.ts), from the term tables
// the keyword trigger keeps (PostgreSQL step 2): N and the total length in keyword_stats,
// each term's row in keyword_terms, its postings from node_keywords (a GIN lookup, each
// node's weighted tf and length). What changed is told per term, across processes and
// without messages: the trigger rewrites a term's keyword_terms row whenever any node
// holding the term (before or after the write) is written, in whichever process, so the
// row's xmin is the term's version. One statement a query: the statistics, every term's
// version, and the postings of each term not held at its current version (the lateral read
// runs only for those), all in one snapshot.
import type { PgStore } from '../../db/store/pg-store.js';
import { anyOfTsquery } from '../../search/lexemes.js';
import type { KeywordSource, NodeTerms, QueryRead, TermRead } from '../../search/keyword/source.js';
import { phraseLexemes } from './keyword-index.pg.js';

const READ_SQL = `
WITH s AS (SELECT docs, total_len FROM keyword_stats WHERE tenant_id = $1)
SELECT t.i, coalesce((SELECT docs FROM s), 0) AS docs, coalesce((SELECT total_len FROM s), 0) AS total_len,
       CAST(k.xmin AS text) AS version, p.seqs, p.tfs, p.lens
FROM unnest($2::text[], $3::tsquery[], $4::text[]) WITH ORDINALITY AS t(term, tsq, have, i)
LEFT JOIN keyword_terms k ON k.tenant_id = $1 AND k.term = t.term AND k.df > 0
LEFT JOIN LATERAL (
  SELECT array_agg(CAST(d.seq AS float8) ORDER BY d.seq) AS seqs,
         array_agg(CAST(d.tf ->> t.term AS float8) ORDER BY d.seq) AS tfs,
         array_agg(d.len ORDER BY d.seq) AS lens
  FROM node_keywords d
  WHERE CAST(k.xmin AS text) <> t.have AND d.tenant_id = $1 AND d.terms @@ t.tsq
) p ON true
ORDER BY t.i`;

interface ReadRow {
  docs: number | string;
  total_len: number | string;
  version: string | null;
  seqs: number[] | null;
  tfs: number[] | null;
  lens: number[] | null;
}

export class PgKeywordSource implements KeywordSource {
  constructor(private readonly db: PgStore) {}

  /** Lengths come with each term's postings (a node's length is read with the terms it holds). */
  async lengths(): Promise<{ seqs: number[]; lens: number[] }> {
    return { seqs: [], lens: [] };
  }

  async terms(tenantId: string, minDf: number): Promise<string[]> {
    const r = await this.db.query<{ term: string }>('SELECT term FROM keyword_terms WHERE tenant_id = $1 AND df >= $2 ORDER BY df DESC', [tenantId, minDf]);
    return r.rows.map((row) => row.term);
  }

  async read(tenantId: string, terms: string[], have: (string | null)[]): Promise<QueryRead> {
    if (terms.length === 0) {
      const r = await this.db.query<{ docs: string; total_len: string }>('SELECT docs, total_len FROM keyword_stats WHERE tenant_id = $1', [tenantId]);
      return { n: Number(r.rows[0]?.docs ?? 0), totalLen: Number(r.rows[0]?.total_len ?? 0), versions: [], postings: [] };
    }
    const rows = (await this.db.query<ReadRow>(READ_SQL, [tenantId, terms, terms.map((l) => anyOfTsquery([l])), have.map((v) => v ?? '')])).rows;
    return {
      n: Number(rows[0].docs),
      totalLen: Number(rows[0].total_len),
      versions: rows.map((r) => r.version),
      postings: rows.map((r, i): TermRead | null => (r.version !== null && r.version !== have[i] ? { seqs: r.seqs ?? [], wtf: r.tfs ?? [], lens: r.lens ?? [] } : null)),
    };
  }

  // No change log: each term's version tells what changed.
  watch(): number {
    return 0;
  }

  unwatch(): void {}

  changes(_tenantId: string, from: number): { seqs: number[]; next: number } {
    return { seqs: [], next: from };
  }

  async nodes(): Promise<NodeTerms[]> {
    return [];
  }

  /** Each node's weighted tf per lexeme and length, as the keyword trigger keeps them. */
  async termVectors(tenantId: string, seqs: number[]): Promise<NodeTerms[]> {
    if (seqs.length === 0) return [];
    const r = await this.db.query<{ seq: string | number; len: number; tf: Record<string, number> }>('SELECT seq, len, tf FROM node_keywords WHERE tenant_id = $1 AND seq = ANY($2::bigint[])', [tenantId, seqs]);
    return r.rows.map((row) => ({ seq: Number(row.seq), len: Number(row.len), tf: new Map(Object.entries(row.tf).map(([t, f]) => [t, Number(f)])) }));
  }

  /** The lexemes of each FTS5 phrase, as the index reads them. */
  async indexedTerms(phrases: string[]): Promise<string[][]> {
    return phrases.map((p) => phraseLexemes(p));
  }
}
