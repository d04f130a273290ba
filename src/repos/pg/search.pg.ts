// The keyword side of search on PostgreSQL: the same answers as SearchRepo gives over FTS5
// (BM25 with the field weights, under the filters), from PgKeywordIndex. The FTS5 quoted
// phrases the search service builds become lexemes (phraseLexemes). No kept impacts here:
// every query scores its matches in SQL (docs/scale-out.md, "Keyword search").
import type { PgDb, PgStatement } from '../../db/pg/pg-db.js';
import { filterSql, type NodeFilter, type NodeRow } from '../nodes.repo.js';
import type { KeywordSearch, KeywordTop } from '../search.repo.js';
import { phraseLexemes, type PgKeywordIndex } from './keyword-index.pg.js';

export class PgSearchRepo implements KeywordSearch {
  private readonly bySeqs: PgStatement;

  constructor(
    db: PgDb,
    readonly keywords: PgKeywordIndex,
  ) {
    this.bySeqs = db.prepare('SELECT n.* FROM json_each(?) j CROSS JOIN nodes n ON n.seq = CAST(j.value AS BIGINT) WHERE n.tenant_id = ?');
  }

  keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): KeywordTop {
    const lexemes = phrases.flatMap((p) => phraseLexemes(p));
    const rows = this.keywords.rank(tenantId, lexemes, limit, { where: filterSql(tenantId, f) });
    // The exact number of matches comes with the ranking (total_matches needs no count query).
    return { hits: rows.map(({ seq, score }) => ({ seq, score })), total: rows.length ? Number(rows[0].total) : 0 };
  }

  keywordCount(tenantId: string, match: string, f: NodeFilter): number {
    return this.keywords.count(tenantId, phraseLexemes(match), filterSql(tenantId, f));
  }

  termStats(tenantId: string, phrases: string[]): { n: number; df: number[] } {
    return this.keywords.termStats(tenantId, phrases.flatMap((p) => phraseLexemes(p)));
  }

  nodesBySeqs(tenantId: string, seqs: number[]): NodeRow[] {
    if (seqs.length === 0) return [];
    return this.bySeqs.all(JSON.stringify(seqs), tenantId) as NodeRow[];
  }
}
