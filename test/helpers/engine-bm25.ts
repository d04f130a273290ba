// The engines' own BM25, kept as references the keyword module is checked against (tests)
// and measured against (bench/search.ts, bench/pg.ts); the server never ranks this way.
// SQLite: FTS5's bm25() over the tenant's table, with the field weights. PostgreSQL: the same
// formula in SQL over node_keywords and the term tables (pgBm25). Both under a node filter,
// with the count of every match and the statistics.
import type { Database } from '../../src/db/store/contract.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { ftsTable } from '../../src/db/fts-tables.js';
import { sql, type Query } from '../../src/db/store/sql.js';
import { BM25_B, BM25_K1, FIELD_WEIGHTS } from '../../src/search/keyword-score.js';
import { anyOfTsquery } from '../../src/search/lexemes.js';
import { filterSql, type NodeFilter } from '../../src/repos/nodes.repo.js';
import { phraseLexemes } from '../../src/repos/pg/keyword-index.pg.js';

export interface EngineTop {
  hits: { seq: number; score: number }[];
  total: number;
  stats: { n: number; df: number[] };
}

/** The best `limit` nodes for these quoted terms OR-ed, as the engine itself scores them. */
export async function engineTop(db: Database, tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<EngineTop> {
  const stats = await engineStats(db, tenantId, phrases);
  if (db instanceof PgStore) {
    const rows = await pgBm25(db, tenantId, phrases.flatMap((p) => phraseLexemes(p)), limit, filterSql('postgres', tenantId, f));
    return { hits: rows.map(({ seq, score }) => ({ seq: Number(seq), score })), total: rows.length ? Number(rows[0].total) : 0, stats };
  }
  const t = await ftsTableOf(db, tenantId);
  if (!t || !phrases.length) return { hits: [], total: 0, stats };
  const match = phrases.join(' OR ');
  const from = sql`FROM ${sql.raw(t)} JOIN nodes n ON n.seq = ${sql.raw(t)}.rowid WHERE ${sql.raw(t)} MATCH ${match} AND ${filterSql('sqlite', tenantId, f)}`;
  const bm25 = sql.raw(`bm25(${t}, ${FIELD_WEIGHTS.join(', ')})`);
  const hits = await db.all(sql<{ seq: number; score: number }>`SELECT n.seq, -${bm25} AS score ${from} ORDER BY ${bm25} LIMIT ${limit}`);
  return { hits, total: (await db.value<number>(sql`SELECT count(*) ${from}`)) ?? 0, stats };
}

const num = (x: number) => sql.raw(String(x));

/**
 * BM25 in SQL on PostgreSQL, as FTS5 computes it: the tenant's nodes holding any of the
 * lexemes (not deduplicated: two query terms with one stem count twice, as two FTS5 phrases
 * do) meeting `where` (over alias n), best first, each row with the count of every match.
 * One GIN lookup per term; the postings materialised so each tf is de-TOASTed once.
 */
export async function pgBm25(db: PgStore, tenantId: string, lexemes: string[], limit: number, where?: Query): Promise<{ seq: number; id: string; score: number; total: number }[]> {
  if (!lexemes.length || limit <= 0) return [];
  const rows = await db.all(sql<{ seq: number | string; id: string; score: number; total: number | string }>`
WITH stats AS (
  SELECT docs::float8 AS n, total_len::float8 / greatest(docs, 1) AS avgdl FROM keyword_stats WHERE tenant_id = ${tenantId}
), q AS (
  SELECT t.term, t.tsq, greatest(ln((stats.n - coalesce(k.df, 0) + 0.5) / (coalesce(k.df, 0) + 0.5)), 1e-6) AS idf
  FROM unnest(${lexemes}::text[], ${lexemes.map((l) => anyOfTsquery([l]))}::tsquery[]) AS t(term, tsq) CROSS JOIN stats
  LEFT JOIN keyword_terms k ON k.tenant_id = ${tenantId} AND k.term = t.term
), p AS MATERIALIZED (
  SELECT d.seq, d.len, q.idf, (d.tf ->> q.term)::float8 AS tf FROM q JOIN node_keywords d ON d.tenant_id = ${tenantId} AND d.terms @@ q.tsq
), scored AS (
  SELECT p.seq, sum(p.idf * (p.tf * ${num(BM25_K1 + 1)}) / (p.tf + ${num(BM25_K1)} * (1 - ${num(BM25_B)} + ${num(BM25_B)} * p.len / stats.avgdl))) AS score
  FROM stats CROSS JOIN p
  GROUP BY p.seq
)
SELECT n.seq, n.id, s.score::float8 AS score, count(*) OVER () AS total FROM scored s JOIN nodes n ON n.seq = s.seq
WHERE ${where ?? sql`n.tenant_id = ${tenantId}`}
ORDER BY s.score DESC, n.seq
LIMIT ${limit}`);
  return rows.map((r) => ({ seq: Number(r.seq), id: r.id, score: r.score, total: Number(r.total) }));
}

/** N (the tenant's nodes) and each quoted term's document frequency, counted by the engine. */
export async function engineStats(db: Database, tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }> {
  if (db instanceof PgStore) {
    const lexemes = phrases.flatMap((p) => phraseLexemes(p));
    const n = Number((await db.value(sql`SELECT docs FROM keyword_stats WHERE tenant_id = ${tenantId}`)) ?? 0);
    const df = await Promise.all(lexemes.map(async (l) => Number((await db.value(sql`SELECT df FROM keyword_terms WHERE tenant_id = ${tenantId} AND term = ${l}`)) ?? 0)));
    return { n, df };
  }
  const t = await ftsTableOf(db, tenantId);
  if (!t) return { n: 0, df: phrases.map(() => 0) };
  const n = (await db.value<number>(sql`SELECT total_nodes FROM tenant_stats WHERE tenant_id = ${tenantId}`)) ?? 0;
  const df = await Promise.all(phrases.map(async (p) => (await db.value<number>(sql`SELECT count(*) FROM ${sql.raw(t)} WHERE ${sql.raw(t)} MATCH ${p}`)) ?? 0));
  return { n, df };
}

async function ftsTableOf(db: Database, tenantId: string): Promise<string | null> {
  const t = ftsTable(tenantId);
  return (await db.value(sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${t}`)) ? t : null;
}

/**
 * The seqs in rank order, two scores within 1e-9 of each other one tie listed by seq:
 * PostgreSQL's statement sums in another order than the module (the last bit decides them).
 */
export function tiedOrder(hits: { seq: number; score: number }[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < hits.length; ) {
    let j = i + 1;
    while (j < hits.length && Math.abs(hits[j].score - hits[j - 1].score) < 1e-9) j++;
    out.push(...hits.slice(i, j).map((h) => h.seq).sort((a, b) => a - b));
    i = j;
  }
  return out;
}

/** Plain FTS5 BM25 (equal column weights) for a MATCH expression, node ids best first: the baseline `npm run eval` measures every mode against. */
export async function plainBm25(db: Database, tenantId: string, match: string, limit: number): Promise<string[]> {
  const t = await ftsTableOf(db, tenantId);
  if (!t) return [];
  const rows = await db.all(sql<{ id: string }>`SELECT n.id FROM ${sql.raw(t)} JOIN nodes n ON n.seq = ${sql.raw(t)}.rowid
    WHERE ${sql.raw(t)} MATCH ${match} AND n.tenant_id = ${tenantId} ORDER BY bm25(${sql.raw(t)}) LIMIT ${limit}`);
  return rows.map((r) => r.id);
}
