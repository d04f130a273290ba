// PostgreSQL's own keyword scoring: the same answers as SearchRepo gives over FTS5 (BM25
// with the field weights, under the filters), from PgKeywordIndex. The FTS5 quoted phrases
// the search service builds become lexemes (phraseLexemes). The ranked route
// (search/keyword/, fed by keyword-source.pg.ts) ranks queries, filtered ones too; this
// scores those inside a transaction in SQL.
import type { PgStore } from '../../db/store/pg-store.js';
import { sql } from '../../db/store/sql.js';
import { filterSql, isFiltered, paraIdsColumn, type NodeFilter } from '../nodes.repo.js';
import { highlightsColumn } from '../highlights.repo.js';
import type { KeywordSearch, KeywordTop, NodeRowWithMarks } from '../search.repo.js';
import { phraseLexemes, type PgKeywordIndex } from './keyword-index.pg.js';

export class PgSearchRepo implements KeywordSearch {
  constructor(
    private readonly db: PgStore,
    readonly keywords: PgKeywordIndex,
  ) {}

  async keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<KeywordTop> {
    const lexemes = phrases.flatMap((p) => phraseLexemes(p));
    const rows = await this.keywords.rank(tenantId, lexemes, limit, { where: isFiltered(f) ? filterSql('postgres', tenantId, f) : undefined });
    // The exact number of matches comes with the ranking (total_matches needs no count query).
    return { hits: rows.map(({ seq, score }) => ({ seq, score })), total: rows.length ? Number(rows[0].total) : 0 };
  }

  async keywordCount(tenantId: string, match: string, f: NodeFilter): Promise<number> {
    return await this.keywords.count(tenantId, phraseLexemes(match), filterSql('postgres', tenantId, f));
  }

  async termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }> {
    return await this.keywords.termStats(tenantId, phrases.flatMap((p) => phraseLexemes(p)));
  }

  async nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]> {
    if (seqs.length === 0) return [];
    return await this.db.all(
      sql<NodeRowWithMarks>`SELECT n.*, ${sql.raw(paraIdsColumn('postgres'))}, ${sql.raw(highlightsColumn('postgres'))} FROM json_array_elements_text(${JSON.stringify(seqs)}::json) AS j(value)
        JOIN nodes n ON n.seq = CAST(j.value AS BIGINT) WHERE n.tenant_id = ${tenantId}`,
    );
  }
}
