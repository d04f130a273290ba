// GET /nodes: keyword (FTS5 BM25 over the query's content terms, in the tenant's own
// table), semantic (k-NN on the in-memory quantised index) or hybrid, under the filters,
// paginated over a bounded candidate pool. Every score is absolute: keyword = BM25 against
// the query's attainable maximum (search/keyword-score.ts), semantic = cosine read through
// the model's calibration (search/calibration.ts), hybrid = their fusion
// (search/calibrated-fusion.ts). A hit only the semantic side found must clear the
// model's floor, so an unrelated query returns nothing; a keyword match is always kept.
import type { NodeFilter, NodesRepo } from '../../repos/nodes.repo.js';
import type { SearchRepo } from '../../repos/search.repo.js';
import type { KnnHit, VectorsRepo } from '../../repos/vectors.repo.js';
import type { NodeDto, NodeSearchParams } from '../../schemas/nodes.js';
import { abstentionFloor, clearsFloor, semanticScore, type Scale } from '../../search/calibration.js';
import { fuseCalibrated, HYBRID_KEYWORD_WEIGHT, type CalibratedHit, type SideHit } from '../../search/calibrated-fusion.js';
import { buildFtsQuery, contentTerms } from '../../search/fts-query.js';
import { highlightsFor } from '../../search/highlights.js';
import { keywordScore, maxAttainableBm25 } from '../../search/keyword-score.js';
import { quoteTerm } from '../../search/text.js';
import { SemanticIndexes } from '../../vectors/semantic-index.js';
import { NORMALISE_DEPTH, type RankedHit } from '../../search/fusion.js';
import type { EmbeddingService } from './embedding.service.js';
import { toNodeDto } from './nodes.service.js';

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
    private readonly vectors: VectorsRepo,
    private readonly embedding: EmbeddingService,
  ) {
    this.index = new SemanticIndexes({
      space: () => vectors.space(),
      all: (t) => repo.vectorRows(t),
      some: (t, ids) => repo.vectorRowsFor(t, ids),
    });
  }

  private readonly index: SemanticIndexes;

  async search(tenantId: string, p: NodeSearchParams): Promise<SearchResult> {
    const filter: NodeFilter = { status: p.status, para_item_id: p.para_item_id, orphan: p.orphan };
    const offset = (p.page - 1) * p.per_page;
    const query = p.query?.trim();
    if (!query) {
      const { rows, total } = this.nodes.list(tenantId, filter, p.per_page, offset);
      return { data: this.hydrate(tenantId, rows.map((r) => ({ seq: r.seq }))), total, coverage_capped: false, page: p.page, per_page: p.per_page };
    }
    const pool = p.mode === 'hybrid' ? HYBRID_POOL : CANDIDATE_POOL;
    const sides = await this.sides(tenantId, query, filter, p.mode, pool);
    const served = rankSides(sides, p.mode);
    const pageHits = served.slice(offset, offset + p.per_page);
    const data = this.hydrate(tenantId, pageHits, contentTerms(query));
    if (p.mode === 'hybrid') data.forEach((d, i) => (d.match_provenance = { keyword: pageHits[i].keyword, semantic: pageHits[i].semantic, score: round(pageHits[i].score) }));
    return {
      data,
      total: served.length,
      ...(sides.totalMatches !== undefined ? { total_matches: sides.totalMatches } : {}),
      coverage_capped: sides.totalMatches !== undefined && sides.totalMatches > pool,
      page: p.page,
      per_page: p.per_page,
    };
  }

  /**
   * Both sides of a query, raw: keyword hits with their BM25 and the query's attainable
   * maximum, semantic hits with their cosine, and the model's query scale. `npm run eval`
   * ranks these with today's and earlier methods in the same run.
   */
  async sides(tenantId: string, query: string, filter: NodeFilter, mode: 'keyword' | 'semantic' | 'hybrid', pool: number): Promise<SearchSides> {
    const match = buildFtsQuery(query);
    const wantKeyword = mode !== 'semantic';
    const wantSemantic = mode !== 'keyword';
    // The query's embedding is computed in the model's worker thread: ask for it first and
    // let the request reach the worker (one event-loop turn), so the keyword side runs on
    // this thread meanwhile instead of after it. embedQuery never rejects (null = no vector).
    const vectorPromise = wantSemantic ? this.embedding.embedQuery(query) : Promise.resolve(null);
    if (wantSemantic && wantKeyword && match) await new Promise((resolve) => setImmediate(resolve));
    const keyword: RankedHit[] = wantKeyword && match ? this.repo.keyword(tenantId, match, filter, pool) : [];
    const totalMatches = wantKeyword ? (match ? (keyword.length < pool ? keyword.length : this.repo.keywordCount(tenantId, match, filter)) : 0) : undefined;
    let maxBm25 = 0;
    if (keyword.length) {
      const stats = this.repo.termStats(tenantId, contentTerms(query).map(quoteTerm));
      maxBm25 = maxAttainableBm25(stats.n, stats.df);
    }
    const vector = await vectorPromise;
    const semantic = vector ? this.nearest(tenantId, vector, filter, pool) : [];
    const scale = vector ? (await this.embedding.ready()).query : null;
    return { keyword, maxBm25, semantic, scale, vectors: vector ? this.index.size(tenantId) : 0, totalMatches };
  }

  /** afterEmbed hook: keeps the in-memory semantic index in step with vec0. */
  onEmbedded(tenantId: string, nodeIds: string[]): void {
    this.index.onEmbedded(tenantId, nodeIds);
  }

  /** Loads the tenant's vectors into the semantic index now; returns how many. */
  warm(tenantId: string): number {
    return this.index.warm(tenantId);
  }

  /**
   * k-NN under the filters, over-fetching until the filters leave a full pool (or every
   * vector was seen). Hits are checked against the nodes table: a deleted node's vector
   * (or one whose seq a newer node took) is dropped here and pruned from the index.
   */
  nearest(tenantId: string, vec: Float32Array, f: NodeFilter, pool = CANDIDATE_POOL): Array<RankedHit & { id: string }> {
    const filtered = f.status !== undefined || f.para_item_id !== undefined || f.orphan !== undefined;
    const available = this.index.warm(tenantId);
    let k = Math.min(pool, available);
    for (;;) {
      const hits = this.index.search(tenantId, vec, k);
      const live = this.repo.passing(tenantId, hits.map((h) => h.seq), f);
      const stale = hits.filter((h) => (filtered ? live.has(h.seq) && live.get(h.seq) !== h.id : live.get(h.seq) !== h.id));
      if (stale.length) this.index.forget(tenantId, stale.map((h) => h.seq));
      const out = hits.filter((h) => live.get(h.seq) === h.id).map((h) => ({ seq: h.seq, id: h.id, score: h.score }));
      if (out.length >= pool || k >= available) return out.slice(0, pool);
      k = Math.min(k * 4, available);
    }
  }

  /**
   * The k nodes nearest to a vector, nearest first, from the same in-memory index semantic
   * search uses (link suggestions, session context and the capture pipeline ask here).
   * distance = 1 - approximate cosine similarity.
   */
  knn(tenantId: string, vec: Float32Array, k: number): KnnHit[] {
    if (k <= 0) return [];
    return this.nearest(tenantId, vec, {}, k).map((h) => ({ id: h.id, seq: h.seq, distance: 1 - h.score }));
  }

  /** Node DTOs of these hits, in order (a node deleted meanwhile drops out), with highlights for `terms`. */
  private hydrate(tenantId: string, hits: { seq: number }[], terms?: string[]): NodeDto[] {
    const rows = new Map(this.repo.nodesBySeqs(tenantId, hits.map((h) => h.seq)).map((r) => [r.seq, r]));
    const present = hits.map((h) => rows.get(h.seq)).filter((r) => r !== undefined);
    const para = this.nodes.paraItemIdsMany(tenantId, present.map((r) => r.id));
    return present.map((r) => {
      const dto = toNodeDto(r, para.get(r.id) ?? []);
      if (terms) dto.highlights = highlightsFor(r, terms);
      return dto;
    });
  }
}

export interface SearchSides {
  /** Keyword hits, best first; score = BM25 (higher is better). */
  keyword: RankedHit[];
  /** The BM25 no node can reach for this query in this tenant (0 without keyword hits). */
  maxBm25: number;
  /** Semantic hits, nearest first; score = approximate cosine. */
  semantic: RankedHit[];
  /** The model's calibration for query-to-note similarity (null: no query vector). */
  scale: Scale | null;
  /** How many notes of the tenant have a vector (the abstention gate rises with it). */
  vectors: number;
  totalMatches?: number;
}

/** Ranks a query's sides on absolute scores, with abstention on the semantic side. */
export function rankSides(sides: SearchSides, mode: 'keyword' | 'semantic' | 'hybrid'): CalibratedHit[] {
  const keyword: SideHit[] = sides.keyword.map((h) => ({ seq: h.seq, score: keywordScore(h.score, sides.maxBm25), raw: h.score }));
  const scale = sides.scale;
  const semantic: SideHit[] = scale
    ? sides.semantic.filter((h) => clearsFloor(h.score, scale)).map((h) => ({ seq: h.seq, score: semanticScore(h.score, scale), raw: h.score }))
    : [];
  if (mode === 'keyword') return keyword.map((h) => ({ seq: h.seq, score: h.score, keyword: true, semantic: false }));
  const gate = scale ? abstentionFloor(scale, sides.vectors) : Infinity;
  if (mode === 'semantic') return semantic.filter((h) => h.raw > gate).map((h) => ({ seq: h.seq, score: h.score, keyword: false, semantic: true }));
  return fuseCalibrated(keyword, semantic, HYBRID_KEYWORD_WEIGHT, gate);
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
