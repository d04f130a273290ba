// GET /nodes: keyword (FTS5 BM25 over the query's content terms, in the tenant's own
// table), semantic (k-NN on the in-memory quantised index) or hybrid, under the filters,
// paginated over a bounded candidate pool. Every score is absolute: keyword = BM25 against
// the query's attainable maximum (search/keyword-score.ts), semantic = cosine read through
// the model's calibration (search/calibration.ts), hybrid = their fusion
// (search/calibrated-fusion.ts). A hit only the semantic side found must clear the
// model's floor, so an unrelated query returns nothing; a keyword match is always kept.
import type { Clock } from '../../clock.js';
import type { NodeFilter, NodeRowWithPara, NodesRepo } from '../../repos/nodes.repo.js';
import type { KeywordSearch } from './keyword-route.js';
import type { NodeDto, NodeSearchParams } from '../../schemas/nodes.js';
import { abstentionFloor, semanticEvidence, semanticScore, type Scale } from '../../search/calibration.js';
import { gateLine, type TenantGate } from '../../search/tenant-gate.js';
import { fuseCalibrated, hybridKeywordWeight, type CalibratedHit, type SideHit } from '../../search/calibrated-fusion.js';
import { buildFtsQuery, contentTerms } from '../../search/fts-query.js';
import { annotationMatches, highlightsFor, snippetOf } from '../../search/highlights.js';
import { keywordScore, maxAttainableBm25 } from '../../search/keyword-score.js';
import { NORMALISE_DEPTH, type RankedHit } from '../../search/fusion.js';
import { periodFirst, periodPools } from '../../search/period-rank.js';
import { parseQueryDates, type DateRange } from '../../search/query-dates.js';
import { roundScore } from '../../search/score.js';
import { quoteTerm } from '../../search/text.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import type { EmbeddingService } from './embedding.service.js';
import { toNodeDto } from './node-dto.js';
import type { SemanticGates } from './semantic-gates.js';

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

/** A node's highlights, re-anchored (services/highlights): a hit on one leads to it. */
export interface HitHighlights {
  highlightsFor(tenantId: string, nodeIds: string[]): Promise<Map<string, Array<{ id: string; text: string; note: string | null; orphaned?: boolean }>>>;
  /** The same from highlight rows read with the nodes (`marks`, a JSON array): no statement. */
  fromMarks(nodes: { id: string; body_markdown: string; marks: string }[]): Map<string, Array<{ id: string; text: string; note: string | null; orphaned?: boolean }>>;
}

export class SearchService {
  constructor(
    private readonly repo: KeywordSearch,
    private readonly nodes: NodesRepo,
    private readonly vectors: VectorStore,
    private readonly embedding: Pick<EmbeddingService, 'embedQuery' | 'ready'>,
    private readonly gates?: SemanticGates,
    private readonly highlights?: HitHighlights,
    private readonly clock?: Clock,
  ) {}

  async search(tenantId: string, p: NodeSearchParams): Promise<SearchResult> {
    const filter: NodeFilter = { status: p.status, para_item_id: p.para_item_id, orphan: p.orphan, tags: p.tag, updated_after: p.updated_after, updated_before: p.updated_before, occurred_after: p.occurred_after, occurred_before: p.occurred_before };
    const offset = (p.page - 1) * p.per_page;
    const query = p.query?.trim();
    if (!query) {
      const { rows, total } = await this.nodes.list(tenantId, filter, p.per_page, offset);
      return { data: await this.hydrate(tenantId, rows, undefined, undefined, rows), total, coverage_capped: false, page: p.page, per_page: p.per_page };
    }
    const pool = p.mode === 'hybrid' ? HYBRID_POOL : CANDIDATE_POOL;
    const sides = await this.sides(tenantId, query, filter, p.mode, pool);
    // A period said in the query ("last May", "in 2022") puts its nodes first, as context and
    // answers do; occurred_after/occurred_before restrict instead.
    const range = this.clock && !p.occurred_after && !p.occurred_before ? parseQueryDates(query, new Date(this.clock.now())).range : null;
    const served = range ? await this.inPeriodFirst(tenantId, query, filter, p.mode, pool, range, rankSides(sides, p.mode)) : rankSides(sides, p.mode);
    const pageHits = served.slice(offset, offset + p.per_page);
    const data = await this.hydrate(tenantId, pageHits, contentTerms(query), sides.passages);
    if (p.mode === 'hybrid') data.forEach((d, i) => (d.match_provenance = { keyword: pageHits[i].keyword, semantic: pageHits[i].semantic, score: roundScore(pageHits[i].score, 6) }));
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
   * The ranked hits with a period's nodes first: the best matches overall and the best within
   * the period (a month's notes are not crowded out by better matches from other months),
   * ordered by search/period-rank.ts.
   */
  private async inPeriodFirst(tenantId: string, query: string, filter: NodeFilter, mode: 'keyword' | 'semantic' | 'hybrid', pool: number, range: DateRange, overall: CalibratedHit[]): Promise<CalibratedHit[]> {
    const within = rankSides(await this.sides(tenantId, query, { ...filter, occurred_after: range.after, occurred_before: range.before }, mode, pool), mode);
    const hits = periodPools(overall, within);
    const dates = new Map((await this.nodes.datesBySeqs(tenantId, hits.map((h) => h.seq))).map((d) => [d.seq, d]));
    return periodFirst(hits, dates, range);
  }

  /**
   * The cosine a note drawn in by meaning alone must exceed for this query vector in this
   * tenant (the gate search uses, semanticOnlyMin): link suggestions apply the same line.
   */
  async semanticLine(tenantId: string, vector: Float32Array): Promise<number> {
    const scale = (await this.embedding.ready()).query;
    const vectors = await this.vectors.count(tenantId);
    const gate = this.gates ? await this.gates.gateFor(tenantId, vectors, scale) : null;
    const semantic = (await this.vectors.nearest(tenantId, vector, 1)).map((h) => ({ seq: h.seq, score: h.score }));
    return semanticOnlyMin({ keyword: [], maxBm25: 0, semantic, keywordCosine: [], scale, gate, vectors, queryTerms: 0 });
  }

  /**
   * Measures the tenant's semantic gate unless one is kept and fresh: called at start-up for
   * the tenants whose indexes were loaded ahead, so their first queries find it ready.
   */
  async prepareGate(tenantId: string): Promise<void> {
    if (!this.gates) return;
    const scale = (await this.embedding.ready()).query;
    await this.gates.gateFor(tenantId, await this.vectors.count(tenantId), scale);
  }

  /** A query ranked as GET /nodes ranks it (absolute scores, the semantic gate), best first: what context and answers build on. */
  async rank(tenantId: string, query: string, mode: 'keyword' | 'semantic' | 'hybrid', filter: NodeFilter = {}, pool = mode === 'hybrid' ? HYBRID_POOL : CANDIDATE_POOL): Promise<CalibratedHit[]> {
    return rankSides(await this.sides(tenantId, query, filter, mode, pool), mode);
  }

  /** How rare each of the query's content terms is among the tenant's notes (BM25's idf), for weighing the sentences of an answer. */
  async termRarity(tenantId: string, query: string): Promise<Map<string, number>> {
    const terms = contentTerms(query);
    const stats = await this.repo.termStats(tenantId, terms.map(quoteTerm));
    return new Map(terms.map((t, i) => [t, Math.log(1 + (stats.n - stats.df[i] + 0.5) / (stats.df[i] + 0.5))]));
  }

  /**
   * rank(), with each hit's own cosine to the query and the cosine a note drawn in by meaning
   * alone had to clear (Infinity: the query does not speak by meaning here): an answer takes
   * a note whose cosine clears it as relevant by meaning, whatever words it shares.
   */
  async rankWithEvidence(tenantId: string, query: string, filter: NodeFilter = {}): Promise<{ hits: CalibratedHit[]; cosine: Map<number, number>; gate: number; floor: number }> {
    const sides = await this.sides(tenantId, query, filter, 'hybrid', HYBRID_POOL);
    const cosine = new Map<number, number>();
    for (const h of [...sides.semantic, ...sides.keywordCosine]) cosine.set(h.seq, h.score);
    return { hits: rankSides(sides, 'hybrid'), cosine, gate: semanticOnlyMin(sides), floor: sides.scale?.floor ?? Infinity };
  }

  /**
   * Both sides of a query, raw: keyword hits with their BM25 and the query's attainable
   * maximum, semantic hits with their cosine, and the model's query scale. `npm run eval`
   * ranks these with today's and earlier methods in the same run.
   */
  async sides(tenantId: string, query: string, filter: NodeFilter, mode: 'keyword' | 'semantic' | 'hybrid', pool: number): Promise<SearchSides> {
    const match = buildFtsQuery(query);
    const terms = contentTerms(query);
    const quoted = terms.map(quoteTerm);
    const wantKeyword = mode !== 'semantic';
    const wantSemantic = mode !== 'keyword';
    // The query's embedding is computed in the model's worker thread: ask for it first and
    // let the request reach the worker (one event-loop turn), so the keyword side runs on
    // this thread meanwhile instead of after it. embedQuery never rejects (null = no vector).
    const vectorPromise = wantSemantic ? this.embedding.embedQuery(query) : Promise.resolve(null);
    if (wantSemantic && wantKeyword && match) await new Promise((resolve) => setImmediate(resolve));
    const top = wantKeyword && match ? await this.repo.keywordTop(tenantId, quoted, filter, pool) : { hits: [], total: 0, stats: { n: 0, df: [] } };
    const keyword: RankedHit[] = top.hits;
    const totalMatches = wantKeyword ? (match ? top.total : 0) : undefined;
    const maxBm25 = keyword.length ? maxAttainableBm25(top.stats.n, top.stats.df) : 0;
    const vector = await vectorPromise;
    const semantic = vector ? await this.vectors.nearest(tenantId, vector, pool, filter) : [];
    // The passage of a long note that scored it (when closer than the note as a whole).
    const passages = new Map<number, number>();
    // Every keyword hit's own similarity, not only of those in the k-NN pool: a node's
    // hybrid score must not depend on how many closer notes the tenant holds.
    const inPool = new Set(semantic.map((h) => h.seq));
    const cosines = vector && keyword.length ? await this.vectors.similarities(tenantId, vector, keyword.filter((h) => !inPool.has(h.seq)).map((h) => h.seq)) : [];
    for (const h of [...semantic, ...cosines]) if (h.passage !== undefined) passages.set(h.seq, h.passage);
    const keywordCosine = cosines.map((h) => ({ seq: h.seq, score: h.score }));
    const scale = vector ? (await this.embedding.ready()).query : null;
    const vectorCount = vector ? await this.vectors.count(tenantId) : 0;
    const gate = scale && this.gates ? await this.gates.gateFor(tenantId, vectorCount, scale) : null;
    return { keyword, maxBm25, semantic: semantic.map((h) => ({ seq: h.seq, score: h.score })), keywordCosine, scale, gate, vectors: vectorCount, queryTerms: terms.length, totalMatches, passages };
  }

  /**
   * The passage by which each of these nodes matched a query by meaning (its text and where
   * it lies in the body), for those a passage scored: what context shows beside the passages
   * that hold the query's words.
   */
  async matchedPassages(tenantId: string, query: string, seqs: number[]): Promise<Map<number, { start: number; end: number }>> {
    const vector = seqs.length ? await this.embedding.embedQuery(query) : null;
    if (!vector) return new Map();
    const keys = new Map((await this.vectors.similarities(tenantId, vector, seqs)).filter((h) => h.passage !== undefined).map((h) => [h.seq, h.passage!]));
    const spans = await this.vectors.passageSpans(tenantId, [...keys.values()]);
    return new Map([...keys].filter(([, k]) => spans.has(k)).map(([seq, k]) => [seq, spans.get(k)!]));
  }

  /**
   * Node DTOs of these hits, in order (a node deleted meanwhile drops out), with highlights
   * for `terms`; a node a passage matched by meaning carries that passage (and, when none of
   * the query's words is in it, the passage is its snippet).
   */
  /** `known`: the rows when the caller has just read them (a list page), not read again. */
  private async hydrate(tenantId: string, hits: { seq: number }[], terms?: string[], passages?: Map<number, number>, known?: NodeRowWithPara[]): Promise<NodeDto[]> {
    const rows = new Map((known ?? await this.repo.nodesBySeqs(tenantId, hits.map((h) => h.seq))).map((r) => [r.seq, r]));
    const present = hits.map((h) => rows.get(h.seq)).filter((r) => r !== undefined);
    const keys = passages ? present.map((r) => passages.get(r.seq)).filter((k) => k !== undefined) : [];
    const spans = await this.vectors.passageSpans(tenantId, keys);
    // A search page's rows carry their highlights (nodesBySeqs); rows read otherwise do not.
    const withMarks = present.every((r): r is typeof r & { marks: string } => typeof (r as { marks?: unknown }).marks === 'string');
    const marked = !terms || !this.highlights ? new Map() : withMarks ? this.highlights.fromMarks(present) : await this.highlights.highlightsFor(tenantId, present.map((r) => r.id));
    return present.map((r) => {
      const dto = toNodeDto(r, JSON.parse(r.para_ids) as string[]);
      if (terms) dto.highlights = highlightsFor(r, terms);
      const met = terms ? annotationMatches(marked.get(r.id) ?? [], terms) : [];
      if (met.length) dto.annotation_matches = met;
      const key = passages?.get(r.seq);
      const span = key === undefined ? undefined : spans.get(key);
      if (span && span.node_id === r.id && span.end <= r.body_markdown.length) {
        dto.passage = { text: r.body_markdown.slice(span.start, span.end), start: span.start, end: span.end };
        if (dto.highlights && !dto.highlights.length) dto.highlights = [{ field: 'body', ...snippetOf(plainText(dto.passage.text), []) }];
      }
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
  /** The cosine of the keyword hits the semantic pool does not hold (those with a vector). */
  keywordCosine: RankedHit[];
  /** The model's calibration for query-to-note similarity (null: no query vector). */
  scale: Scale | null;
  /** The tenant's own gate (search/tenant-gate.ts); null: too few notes, the best-of-N gate applies. */
  gate?: TenantGate | null;
  /** How many notes of the tenant have a vector (the abstention gate rises with it). */
  vectors: number;
  /** The query's content terms (stopwords dropped): a longer question gives meaning more weight. */
  queryTerms: number;
  totalMatches?: number;
  /** Nodes a passage scored on the semantic side: node seq → the passage's key. */
  passages?: Map<number, number>;
}

/** Ranks a query's sides on absolute scores, with abstention on the semantic side. */
export function rankSides(sides: SearchSides, mode: 'keyword' | 'semantic' | 'hybrid'): CalibratedHit[] {
  const keyword: SideHit[] = sides.keyword.map((h) => ({ seq: h.seq, score: keywordScore(h.score, sides.maxBm25), raw: h.score }));
  const scale = sides.scale;
  if (mode === 'keyword') return keyword.map((h) => ({ seq: h.seq, score: h.score, keyword: true, semantic: false }));
  const gate = semanticOnlyMin(sides, mode === 'semantic' ? 'semantic' : 'hybrid');
  const semantic: SideHit[] = scale
    ? sides.semantic.filter((h) => h.score > Math.min(scale.floor, gate)).map((h) => ({ seq: h.seq, score: semanticScore(h.score, scale), raw: h.score }))
    : [];
  if (mode === 'semantic') return semantic.filter((h) => h.raw > gate).map((h) => ({ seq: h.seq, score: h.score, keyword: false, semantic: true }));
  // No keyword match at all: the calibrated semantic score alone (a paraphrase).
  if (!scale || keyword.length === 0) return fuseCalibrated(keyword, semantic, 1, gate);
  // Keyword hits mixed with the semantic evidence of their own cosine.
  const cosine = new Map(sides.semantic.map((h) => [h.seq, h.score]));
  for (const h of sides.keywordCosine) if (!cosine.has(h.seq)) cosine.set(h.seq, h.score);
  const evidence: SideHit[] = [...cosine].filter(([, c]) => c > Math.min(scale.floor, gate)).map(([seq, c]) => ({ seq, score: semanticEvidence(c, scale), raw: c }));
  return fuseCalibrated(keyword, evidence, sides.vectors > 0 ? hybridKeywordWeight(sides.queryTerms) : 1, gate);
}

/**
 * The cosine a hit drawn by meaning alone must exceed: the tenant's own gate when it has
 * one (nothing unless the query's best match speaks, then its list line; the semantic mode
 * speaks from its own line, search/tenant-gate.ts), else the calibrated best-of-N gate;
 * Infinity without a query vector.
 */
export function semanticOnlyMin(sides: SearchSides, mode: 'semantic' | 'hybrid' = 'hybrid'): number {
  if (!sides.scale) return Infinity;
  if (!sides.gate) return abstentionFloor(sides.scale, sides.vectors);
  return gateLine(sides.semantic.reduce((m, h) => Math.max(m, h.score), -Infinity), sides.gate, mode);
}

const plainText = (s: string) => s.replace(/\s+/g, ' ').trim();
