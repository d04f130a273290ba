// GET /nodes: keyword (FTS5 BM25), semantic (k-NN) or hybrid (both, fused), under the
// filters, paginated over a bounded candidate pool.
import type { NodeFilter, NodesRepo } from '../repos/nodes.repo.js';
import type { SearchRepo } from '../repos/search.repo.js';
import type { VectorsRepo } from '../repos/vectors.repo.js';
import type { NodeDto, NodeSearchParams } from '../schemas/nodes.js';
import { buildFtsQuery, contentTerms } from '../search/fts-query.js';
import { fuseConvex, keywordWeight, type FusedHit, type RankedHit } from '../search/fusion.js';
import type { EmbeddingService } from './embedding.service.js';
import { toNodeDto } from './nodes.service.js';

/** Candidates taken from each side; results beyond it are not ranked (coverage_capped). */
export const CANDIDATE_POOL = 1000;

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
  ) {}

  async search(tenantId: string, p: NodeSearchParams): Promise<SearchResult> {
    const filter: NodeFilter = { status: p.status, para_item_id: p.para_item_id, orphan: p.orphan };
    const offset = (p.page - 1) * p.per_page;
    const query = p.query?.trim();
    if (!query) {
      const { rows, total } = this.nodes.list(tenantId, filter, p.per_page, offset);
      return { data: this.hydrate(tenantId, rows.map((r) => ({ seq: r.seq }))), total, coverage_capped: false, page: p.page, per_page: p.per_page };
    }

    const match = buildFtsQuery(query);
    const wantKeyword = p.mode !== 'semantic';
    const wantSemantic = p.mode !== 'keyword';
    const keyword: RankedHit[] = wantKeyword && match ? this.repo.keyword(tenantId, match, filter, CANDIDATE_POOL) : [];
    const totalMatches = wantKeyword ? (match ? (keyword.length < CANDIDATE_POOL ? keyword.length : this.repo.keywordCount(tenantId, match, filter)) : 0) : undefined;
    const semantic = wantSemantic ? await this.semantic(tenantId, query, filter) : [];

    let served: FusedHit[];
    if (p.mode === 'keyword') served = keyword.map((h) => ({ seq: h.seq, score: h.score, keyword: true, semantic: false }));
    else if (p.mode === 'semantic') served = semantic.map((h) => ({ seq: h.seq, score: h.score, keyword: false, semantic: true }));
    else served = fuseConvex(keyword, semantic, keywordWeight(contentTerms(query).length));

    const pageHits = served.slice(offset, offset + p.per_page);
    const data = this.hydrate(tenantId, pageHits);
    if (p.mode === 'hybrid') data.forEach((d, i) => (d.match_provenance = { keyword: pageHits[i].keyword, semantic: pageHits[i].semantic, score: round(pageHits[i].score) }));
    return {
      data,
      total: served.length,
      ...(totalMatches !== undefined ? { total_matches: totalMatches } : {}),
      coverage_capped: totalMatches !== undefined && totalMatches > CANDIDATE_POOL,
      page: p.page,
      per_page: p.per_page,
    };
  }

  /** k-NN, over-fetching until the filters leave enough hits (or every vector was seen). */
  private async semantic(tenantId: string, query: string, f: NodeFilter): Promise<RankedHit[]> {
    const vec = await this.embedding.embedQuery(query);
    if (!vec) return [];
    const filtered = f.status !== undefined || f.para_item_id !== undefined || f.orphan !== undefined;
    const available = this.repo.vectorCount(tenantId);
    let k = Math.min(CANDIDATE_POOL, available);
    for (;;) {
      const hits = this.vectors.knn(tenantId, vec, k);
      const keep = filtered ? this.repo.passing(tenantId, hits.map((h) => h.seq), f) : null;
      const out = hits.filter((h) => !keep || keep.has(h.seq)).map((h) => ({ seq: h.seq, score: 1 - h.distance }));
      if (!filtered || out.length >= CANDIDATE_POOL || k >= Math.min(available, 4096)) return out.slice(0, CANDIDATE_POOL);
      k = Math.min(k * 4, 4096);
    }
  }

  private hydrate(tenantId: string, hits: { seq: number }[]): NodeDto[] {
    const rows = new Map(this.nodes.getBySeqs(tenantId, hits.map((h) => h.seq)).map((r) => [r.seq, r]));
    const present = hits.map((h) => rows.get(h.seq)).filter((r) => r !== undefined);
    const para = this.nodes.paraItemIdsMany(tenantId, present.map((r) => r.id));
    return present.map((r) => toNodeDto(r, para.get(r.id) ?? []));
  }
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
