// The one route a ranked keyword query takes: the keyword module (search/keyword/) ranks it
// from the engine's postings, read through the engine's KeywordSource. Under filters
// (status, tags, dates, PARA, orphans) the module hands the engine the nodes matching any
// term, the nodes repository says which meet the filter (NodesRepo.passing, as for semantic
// hits), and the module ranks and counts
// only those: measured faster than the engine's scoring joined to the filter on both engines
// (docs/keyword-index.md, 100k notes, p50: SQLite 14.0 against 25.5 ms with a filter 70 % of
// notes meet, 2.0 against 9.3 ms with one tag; PostgreSQL 21.4 against 123.5 and 3.6 against
// 92.5). The engine scores a query itself only where the module cannot see what the query
// must see, not for speed:
// - inside a transaction: its own uncommitted writes are in no change log the module reads,
//   and taking them in would keep them after a rollback;
// - a phrase the engine indexes as several tokens (a phrase query, not a term).
import type { NodeFilter } from '../../repos/nodes.repo.js';
import { isFiltered } from '../../repos/nodes.repo.js';
import type { KeywordSearch, KeywordTop, NodeRowWithMarks } from '../../repos/search.repo.js';
import { KeywordRanker } from '../../search/keyword/ranker.js';
import type { FeedbackSettings } from '../../search/keyword/feedback.js';
import type { KeywordSource } from '../../search/keyword/source.js';

export class KeywordRoute implements KeywordSearch {
  readonly ranker: KeywordRanker;
  /** false: every query is scored by the engine (the route before the module; the bench and the lab compare both). */
  useModule = true;
  /** Pseudo-relevance feedback on the module's route (RHIZOME_SEARCH_FEEDBACK, else FEEDBACK_SERVED; null: off — docs/search-quality.md). */
  feedback: FeedbackSettings | null = null;

  /**
   * `passing`: of these seqs, the ones that meet the filter (NodesRepo.passing); without it
   * a filtered query is scored by the engine.
   */
  constructor(
    private readonly engine: KeywordSearch,
    private readonly source: KeywordSource,
    private readonly passing?: (tenantId: string, seqs: number[], f: NodeFilter) => Promise<Map<number, string>>,
  ) {
    this.ranker = new KeywordRanker(source);
  }

  async keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<KeywordTop> {
    const filtered = isFiltered(f);
    const passing = this.passing;
    if (this.useModule && (!filtered || passing) && !this.source.inTransaction && phrases.length && limit > 0) {
      const terms = await this.source.indexedTerms(phrases);
      const only = filtered && passing ? async (seqs: number[]) => [...(await passing(tenantId, seqs, f)).keys()] : undefined;
      if (terms.every((t) => t !== null)) return await this.ranker.top(tenantId, terms as string[], limit, this.feedback, only);
    }
    return await this.engine.keywordTop(tenantId, phrases, f, limit);
  }

  async keywordCount(tenantId: string, match: string, f: NodeFilter): Promise<number> {
    return await this.engine.keywordCount(tenantId, match, f);
  }

  async termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }> {
    return await this.engine.termStats(tenantId, phrases);
  }

  async nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]> {
    return await this.engine.nodesBySeqs(tenantId, seqs);
  }
}
