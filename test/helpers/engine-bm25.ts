// The engines' own BM25, kept as references the keyword module is checked against (tests)
// and measured against (bench/search.ts, bench/pg.ts); the server never ranks this way.
// SQLite: FTS5's bm25() over the tenant's table, with the field weights. PostgreSQL: the same
// formula in SQL over node_keywords and the term tables (PgKeywordIndex.rank, which context
// also reads). Both under a node filter, with the count of every match and the statistics.
import type { Database } from '../../src/db/store/contract.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { sql } from '../../src/db/store/sql.js';
import { ftsTable } from '../../src/db/fts-tables.js';
import { FIELD_WEIGHTS } from '../../src/search/keyword-score.js';
import { filterSql, type NodeFilter } from '../../src/repos/nodes.repo.js';
import { PgKeywordIndex, phraseLexemes } from '../../src/repos/pg/keyword-index.pg.js';

export interface EngineTop {
  hits: { seq: number; score: number }[];
  total: number;
  stats: { n: number; df: number[] };
}

/** The best `limit` nodes for these quoted terms OR-ed, as the engine itself scores them. */
export async function engineTop(db: Database, tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<EngineTop> {
  const stats = await engineStats(db, tenantId, phrases);
  if (db instanceof PgStore) {
    const rows = await new PgKeywordIndex(db).rank(tenantId, phrases.flatMap((p) => phraseLexemes(p)), limit, { where: filterSql('postgres', tenantId, f) });
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
