// The keyword index on PostgreSQL: each node's lexemes, weighted term frequencies and length
// in node_keywords, the tenant's statistics kept on write by triggers (migration 2): N and
// the total length in keyword_stats, each term's document frequency in keyword_terms. The
// keyword module ranks from them (keyword-source.pg.ts); nothing is ranked here. Callers
// speaking FTS5's quoted phrases turn them into lexemes with phraseLexemes().
import type { PgStore } from '../../db/store/pg-store.js';
import { sql, type Query } from '../../db/store/sql.js';
import { nodeLexemes, queryLexemes } from '../../search/lexemes.js';
import type { FtsFields } from '../keyword-index.repo.js';

type Queryable = Pick<PgStore, 'query' | 'one'>;

/** The lexeme of each FTS5 phrase (`"term"`, quotes doubled inside) of a query: the words of a phrase joined, as queryLexemes() does. */
export function phraseLexemes(ftsQuery: string): string[] {
  const out: string[] = [];
  for (const m of ftsQuery.matchAll(/"((?:[^"]|"")*)"/g)) out.push(...queryLexemes(m[1].replace(/""/g, '"')));
  return out;
}

export class PgKeywordIndex {
  constructor(private readonly db: Queryable) {}

  /** Indexes (or re-indexes) a node's four fields. */
  async upsert(tenantId: string, seq: number, f: FtsFields): Promise<void> {
    const l = nodeLexemes(f);
    await this.db.query(
      `INSERT INTO node_keywords (seq, tenant_id, terms, tf, len) VALUES ($1, $2, $3::tsvector, $4::jsonb, $5)
       ON CONFLICT (seq) DO UPDATE SET tenant_id = excluded.tenant_id, terms = excluded.terms, tf = excluded.tf, len = excluded.len`,
      [seq, tenantId, l.tsvector, JSON.stringify(l.tf), l.len],
    );
  }

  /** A new node (NodesRepo's keyword index on PostgreSQL). */
  async insert(tenantId: string, seq: number, f: FtsFields): Promise<void> {
    await this.upsert(tenantId, seq, f);
  }

  /**
   * The node's INSERT … RETURNING seq and its keyword row in one statement: a write's round
   * trip fewer. The keyword trigger fires on the row as on upsert()'s; the foreign key to
   * nodes is checked at the statement's end, when the node is there.
   */
  async insertWithNode(node: Query<{ seq: number }>, tenantId: string, f: FtsFields): Promise<number> {
    const l = nodeLexemes(f);
    const row = await this.db.one(sql<{ seq: number | string }>`WITH n AS (${node}),
      k AS (INSERT INTO node_keywords (seq, tenant_id, terms, tf, len) SELECT n.seq, ${tenantId}, ${l.tsvector}::tsvector, ${JSON.stringify(l.tf)}::jsonb, ${l.len} FROM n)
      SELECT seq FROM n`);
    return Number(row!.seq);
  }

  async delete(tenantId: string, seq: number): Promise<void> {
    await this.db.query('DELETE FROM node_keywords WHERE tenant_id = $1 AND seq = $2', [tenantId, seq]);
  }
}
