// Context's and suggestions' keyword reads on PostgreSQL, from PgKeywordIndex: the FTS5
// phrases the services build become lexemes. Ranking uses the field-weighted term
// frequencies the index keeps (FTS5's reads here weigh the four fields equally: the order
// of close matches can differ between the engines; which nodes match cannot).
import { sql } from '../../db/store/sql.js';
import type { ContextKeywords } from '../context.repo.js';
import { phraseLexemes, type PgKeywordIndex } from './keyword-index.pg.js';

const notDismissed = (tenantId: string) => sql`n.tenant_id = ${tenantId} AND n.status != 'dismissed'`;

export class PgContextKeywords implements ContextKeywords {
  constructor(private readonly index: PgKeywordIndex) {}

  async keywordMatches(tenantId: string, ftsQuery: string, limit: number): Promise<Array<{ id: string; seq: number }>> {
    return (await this.index.rank(tenantId, phraseLexemes(ftsQuery), limit, { where: notDismissed(tenantId) })).map(({ id, seq }) => ({ id, seq }));
  }

  async docFrequency(tenantId: string, ftsPhrase: string, cap: number): Promise<number> {
    return await this.index.count(tenantId, phraseLexemes(ftsPhrase), undefined, cap);
  }

  async newestMatches(tenantId: string, ftsQuery: string, limit: number): Promise<Array<{ id: string; seq: number }>> {
    return (await this.index.rank(tenantId, phraseLexemes(ftsQuery), limit, { where: notDismissed(tenantId), newest: true })).map(({ id, seq }) => ({ id, seq }));
  }
}
