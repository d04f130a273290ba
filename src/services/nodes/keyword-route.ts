// The one route a ranked keyword query takes, on both engines and in every case: the keyword
// module (search/keyword/) ranks it from the engine's postings, read through the engine's
// KeywordSource; no engine scores a query. Under filters (status, tags, dates, PARA,
// orphans) the module hands the nodes repository the nodes matching any term, it says which
// meet the filter (NodesRepo.passing, as for semantic hits), and the module ranks and counts
// only those: measured faster than the engines' own scoring joined to the filter
// (docs/keyword-index.md, 100k notes, p50: SQLite 14.0 against 25.5 ms with a filter 70 % of
// notes meet, 2.0 against 9.3 ms with one tag; PostgreSQL 21.4 against 123.5 and 3.6
// against 92.5). Inside a transaction too, seeing its own writes: on SQLite they are in the
// change log as they are made and logged again if rolled back (keyword-index.repo.ts); on
// PostgreSQL the query reads into an index of its own, dropped with it. A quoted term
// the engine indexes as several tokens ("e-mail") is ranked as those tokens, each a term.
import { isFiltered, type NodeFilter, type NodeRowWithMarks, type NodesRepo } from '../../repos/nodes.repo.js';
import type { FeedbackSettings } from '../../search/keyword/feedback.js';
import { KeywordRanker, type RankedKeywords } from '../../search/keyword/ranker.js';
import type { KeywordSource } from '../../search/keyword/source.js';

export type KeywordTop = Pick<RankedKeywords, 'hits' | 'total' | 'stats'>;

/** What search needs of the keyword side (tests stand in for it). */
export interface KeywordSearch {
  /** The best `limit` nodes for these quoted terms OR-ed under the filter, with the count of all matches and the statistics ranked with. */
  keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<KeywordTop>;
  /** N and each quoted term's document frequency (a term indexed as several tokens: its rarest token's). */
  termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }>;
  /** The page's rows with their PARA ids and highlights. */
  nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]>;
}

export class KeywordRoute implements KeywordSearch {
  readonly ranker: KeywordRanker;
  /** Pseudo-relevance feedback (RHIZOME_SEARCH_FEEDBACK, else FEEDBACK_SERVED; null: off — docs/search-quality.md). */
  feedback: FeedbackSettings | null = null;

  constructor(
    private readonly source: KeywordSource,
    private readonly nodes: Pick<NodesRepo, 'passing' | 'pageBySeqs'>,
  ) {
    this.ranker = new KeywordRanker(source);
  }

  /** With search's feedback by default; `feedback` null ranks by BM25 alone (link suggestions' candidates). */
  async keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number, feedback = this.feedback): Promise<KeywordTop> {
    const terms = (await this.source.indexedTerms(phrases)).flat();
    return await this.ranker.top(tenantId, terms, limit, feedback, this.only(tenantId, f));
  }

  /** The filter as the module asks it: which of these nodes meet it (none given: every node). */
  private only(tenantId: string, f: NodeFilter): ((seqs: number[]) => Promise<number[]>) | undefined {
    return isFiltered(f) ? async (seqs) => [...(await this.nodes.passing(tenantId, seqs, f)).keys()] : undefined;
  }

  /** The newest `limit` nodes under the filter holding any of these quoted terms (a term too common to rank usefully), their seqs. */
  async newestMatches(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<number[]> {
    const terms = (await this.source.indexedTerms(phrases)).flat();
    return await this.ranker.newest(tenantId, terms, limit, this.only(tenantId, f));
  }

  async termStats(tenantId: string, phrases: string[]): Promise<{ n: number; df: number[] }> {
    const terms = await this.source.indexedTerms(phrases);
    const { n, df } = await this.ranker.stats(tenantId, terms.flat());
    return { n, df: rarest(terms, df) };
  }

  /** Each quoted term's document frequency, reading no postings (KeywordRanker.counts): for choosing which terms to rank with (link suggestions). */
  async termCounts(tenantId: string, phrases: string[]): Promise<number[]> {
    const terms = await this.source.indexedTerms(phrases);
    return rarest(terms, await this.ranker.counts(tenantId, terms.flat()));
  }

  async nodesBySeqs(tenantId: string, seqs: number[]): Promise<NodeRowWithMarks[]> {
    return await this.nodes.pageBySeqs(tenantId, seqs);
  }
}

/** Per phrase, the df of its rarest token (`df` runs over the phrases' tokens in order). */
function rarest(terms: string[][], df: number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const t of terms) {
    out.push(t.length ? Math.min(...df.slice(at, at + t.length)) : 0);
    at += t.length;
  }
  return out;
}
