// GET /nodes: keyword (FTS5 BM25 over the query's content terms), semantic (k-NN on the
// in-memory quantised index) or hybrid (convex fusion of both with a query-length keyword
// weight, see search/fusion.ts and the README's search quality section), under the
// filters, paginated over a bounded candidate pool.
import type { NodeFilter, NodesRepo } from '../../repos/nodes.repo.js';
import type { SearchRepo } from '../../repos/search.repo.js';
import type { NodeDto, NodeSearchParams } from '../../schemas/nodes.js';
import { buildFtsQuery, contentTerms } from '../../search/fts-query.js';
import { fuseConvex, keywordWeight, NORMALISE_DEPTH, type FusedHit, type RankedHit } from '../../search/fusion.js';
import type { EmbeddingService } from './embedding.service.js';
import { toNodeDto } from './node-dto.js';
import { roundScore } from '../../search/score.js';
import type { VectorStore } from '../../vectors/vector-store.js';

/** Candidates taken from each side; results beyond it are not ranked (coverage_capped). */
export const CANDIDATE_POOL = 1000;
/**
 * Candidates taken from each side in hybrid mode. Fusion normalises each list over its top
 * NORMALISE_DEPTH and clamps below it, so deeper hits cannot change a score: twice that
 * keeps every hit that can matter (and 10 pages of 20) without ranking a thousand a side.
 */
export const HYBRID_POOL = 2 * NORMALISE_DEPTH;

export interface SearchResult {
  data: NodeDto[];
  total: number;
  total_matches?: number;
  coverage_capped: boolean;
  page: number;
  per_page: number;
}

export class SearchService {
  constructor(
    private readonly repo: SearchRepo,
    private readonly nodes: NodesRepo,
    private readonly vectors: VectorStore,
    private readonly embedding: Pick<EmbeddingService, 'embedQuery'>,
  ) {}

  async search(tenantId: string, p: NodeSearchParams): Promise<SearchResult> {
    const filter: NodeFilter = { status: p.status, para_item_id: p.para_item_id, orphan: p.orphan, tags: p.tag };
    const offset = (p.page - 1) * p.per_page;
    const query = p.query?.trim();
    if (!query) {
      const { rows, total } = this.nodes.list(tenantId, filter, p.per_page, offset);
      return { data: this.hydrate(tenantId, rows.map((r) => ({ seq: r.seq }))), total, coverage_capped: false, page: p.page, per_page: p.per_page };
    }

    const match = buildFtsQuery(query);
    const wantKeyword = p.mode !== 'semantic';
    const wantSemantic = p.mode !== 'keyword';
    // The query's embedding is computed in the model's worker thread: ask for it first and
    // let the request reach the worker (one event-loop turn), so the keyword side runs on
    // this thread meanwhile instead of after it. embedQuery never rejects (null = no vector).
    const vectorPromise = wantSemantic ? this.embedding.embedQuery(query) : Promise.resolve(null);
    if (wantSemantic && wantKeyword && match) await new Promise((resolve) => setImmediate(resolve));
    const pool = p.mode === 'hybrid' ? HYBRID_POOL : CANDIDATE_POOL;
    const keyword: RankedHit[] = wantKeyword && match ? this.repo.keyword(tenantId, match, filter, pool) : [];
    const totalMatches = wantKeyword ? (match ? (keyword.length < pool ? keyword.length : this.repo.keywordCount(tenantId, match, filter)) : 0) : undefined;
    const vector = await vectorPromise;
    const semantic = vector ? this.vectors.nearest(tenantId, vector, pool, filter) : [];

    let served: FusedHit[];
    if (p.mode === 'keyword') served = keyword.map((h) => ({ seq: h.seq, score: h.score, keyword: true, semantic: false }));
    else if (p.mode === 'semantic') served = semantic.map((h) => ({ seq: h.seq, score: h.score, keyword: false, semantic: true }));
    else served = fuseConvex(keyword, semantic, keywordWeight(contentTerms(query).length));

    const pageHits = served.slice(offset, offset + p.per_page);
    const data = this.hydrate(tenantId, pageHits);
    if (p.mode === 'hybrid') data.forEach((d, i) => (d.match_provenance = { keyword: pageHits[i].keyword, semantic: pageHits[i].semantic, score: roundScore(pageHits[i].score, 6) }));
    return {
      data,
      total: served.length,
      ...(totalMatches !== undefined ? { total_matches: totalMatches } : {}),
      coverage_capped: totalMatches !== undefined && totalMatches > pool,
      page: p.page,
      per_page: p.per_page,
    };
  }

  private hydrate(tenantId: string, hits: { seq: number }[]): NodeDto[] {
    const rows = new Map(this.repo.nodesBySeqs(tenantId, hits.map((h) => h.seq)).map((r) => [r.seq, r]));
    const present = hits.map((h) => rows.get(h.seq)).filter((r) => r !== undefined);
    const para = this.nodes.paraItemIdsMany(tenantId, present.map((r) => r.id));
    return present.map((r) => toNodeDto(r, para.get(r.id) ?? []));
  }
}
