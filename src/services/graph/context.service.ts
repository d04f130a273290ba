// POST /context: the nodes an agent's session should see, ranked and explained, each with
// the passages that matched and its dates, so the agent reads what it was given without a
// second request.
//
// With a query, relevance is the query ranked exactly as GET /nodes ranks it (the same
// calibrated keyword and semantic sides and gate, search.service.ts), so context ranks at
// least as well as search; a date said in the query ("in March 2023", "last May") or given
// as occurred_after/occurred_before puts the nodes of that period first (their date is
// occurred_at, else created_at, or a date their text mentions), the best matches among them
// first, then the rest.
// Focus nodes add a graph signal (noisy-OR over paths: 0.8 per 1-hop link, 0.4 per 2-hop):
//   with a query:    score = 0.5·relevance + 0.5·graph
//   without a query: score = (0.6·graph + 0.25·semantic + boosts) / 1.15, where semantic =
//                    similarity to the focus nodes' centroid on the note scale, and the
//                    boosts add recency (0.05·0.5^(age / 30 days)) to a session's focus.
// Boosts (validated, in an active project) only break near-ties. With a query nothing
// depends on the clock: the same request gives the same scores until the notes change.
// With no anchor at all (no known focus node, no query, no dates) the most recent validated
// nodes are returned, then recent raw ones.
import type { Clock } from '../../clock.js';
import { centroid } from '../../vectors/math.js';
import type { ContextRepo, NodeCard } from '../../repos/context.repo.js';
import type { LinksRepo } from '../../repos/links.repo.js';
import type { ContextMode } from '../../schemas/graph.js';
import { semanticSignal, type VectorIndex } from './graph-signals.js';
import { roundScore } from '../../search/score.js';
import { contentWords } from '../../search/text.js';
import type { Calibration, Scale } from '../../search/calibration.js';
import { bestPassages } from '../../search/passages.js';
import { annotationMatches, type AnnotationMatch } from '../../search/highlights.js';
import { parseQueryDates, type DateRange } from '../../search/query-dates.js';
import { periodPools, periodScore } from '../../search/period-rank.js';
import type { CalibratedHit } from '../../search/calibrated-fusion.js';

const HOP1 = 0.8;
const HOP2 = 0.4;
const HALF_LIFE_MS = 30 * 86_400_000;
const RECENT_MS = 7 * 86_400_000;
const MAX_EDGES = 5000;
const MAX_SIGNAL_REASONS = 6;

export interface ContextRequest {
  focus_node_ids?: string[];
  mode: ContextMode;
  query?: string;
  limit: number;
  /** Only this period counts first (ISO UTC, [after, before)); a date in the query does the same. */
  occurred_after?: string;
  occurred_before?: string;
  /** Every one of these tags must be on a node (a session, a source). */
  tags?: string[];
}

export interface ContextPassage {
  text: string;
  /** [start, end) in the node's body_markdown (or its summary when the body is empty: field says which). */
  start: number;
  end: number;
  field: 'body' | 'summary' | 'title';
}

export interface ContextNode {
  id: string;
  title: string;
  summary: string;
  score: number;
  reasons: string[];
  passages: ContextPassage[];
  /** What the owner highlighted in the node, with their notes: an agent sees what mattered to them. */
  highlights: Array<{ id: string; text: string; note: string | null }>;
  /** With a query: the highlights its words met, in their words or their note. */
  annotation_matches?: AnnotationMatch[];
  tags: string[];
  created_at: string;
  updated_at: string;
  occurred_at: string | null;
}

interface Candidate {
  graph: number;
  semantic: number;
  reasons: string[];
}

/** Ranks a query as GET /nodes does (search.service.ts). */
export interface QueryRanker {
  rank(tenantId: string, query: string, mode: ContextMode, filter?: { occurred_after?: string; occurred_before?: string; tags?: string[] }): Promise<CalibratedHit[]>;
  /** The passage of each long note that matched the query by meaning (search.service.ts). */
  matchedPassages?(tenantId: string, query: string, seqs: number[]): Promise<Map<number, { start: number; end: number }>>;
}

/** A node's highlights, re-anchored (services/highlights): what the reader marked and noted. */
export interface HighlightSource {
  highlightsFor(tenantId: string, nodeIds: string[]): Promise<Map<string, Array<{ id: string; text: string; note: string | null; orphaned?: boolean }>>>;
}

export interface ContextDeps {
  search: QueryRanker;
  highlights?: HighlightSource;
  links: LinksRepo;
  repo: ContextRepo;
  vectors: VectorIndex;
  clock: Clock;
  /** The model's calibration (waits for the model). */
  calibration(): Promise<Calibration>;
}

export class ContextService {
  constructor(private readonly d: ContextDeps) {}

  async context(tenantId: string, req: ContextRequest): Promise<{ nodes: ContextNode[] }> {
    const requested = [...new Set(req.focus_node_ids ?? [])];
    const known = await this.d.links.existingIds(tenantId, requested);
    const focus = requested.filter((id) => known.has(id)); // unknown and foreign ids: silently ignored
    const asked = req.query?.trim() ?? '';
    const parsed = asked ? parseQueryDates(asked, new Date(this.d.clock.now())) : { text: '', range: null };
    const range: DateRange | null = req.occurred_after || req.occurred_before ? { after: req.occurred_after, before: req.occurred_before, said: 'occurred_after/occurred_before' } : parsed.range;
    // The question is ranked whole (its date words may be words of the notes too: "1978",
    // "March"); the period only orders. With nothing but a date, the period is listed.
    const query = parsed.text ? asked : '';
    if (query || range) return this.forQuery(tenantId, req, focus, query, range);
    if (focus.length === 0) return { nodes: await this.recentValidated(tenantId, req.limit, req.tags) };

    const focusSet = new Set(focus);
    const cands = await this.graph(tenantId, focus);
    const get = (id: string) => {
      let c = cands.get(id);
      if (!c) cands.set(id, (c = { graph: 0, semantic: 0, reasons: [] }));
      return c;
    };

    const pool = Math.min(300, Math.max(30, req.limit * 3));
    if (req.mode !== 'keyword') {
      for (const anchor of await this.anchors(tenantId, focus)) {
        for (const [id, sim] of await semanticSignal(this.d.vectors, this.d.repo, tenantId, anchor.vector, pool + focus.length, anchor.scale)) {
          if (focusSet.has(id)) continue;
          const c = get(id);
          c.semantic = Math.max(c.semantic, sim);
          reason(c, 'semantic_match');
        }
      }
    }
    const now = this.d.clock.now();
    const out: ContextNode[] = [];
    for (const card of await this.d.repo.cards(tenantId, [...cands.keys()])) {
      if (card.status === 'dismissed' || !hasTags(card, req.tags)) continue;
      const c = cands.get(card.id)!;
      const b = this.boosts(card, now);
      const raw = 0.6 * c.graph + 0.25 * c.semantic + b.score;
      out.push(this.entry(card, raw / 1.15, [...c.reasons.slice(0, MAX_SIGNAL_REASONS), ...b.reasons]));
    }
    return { nodes: await this.withPassages(tenantId, rank(out, req.limit), []) };
  }

  /**
   * A query (and/or a period): relevance from the search ranking, the period's nodes first,
   * the focus nodes' neighbourhood mixed in; each node with the passages that matched.
   */
  private async forQuery(tenantId: string, req: ContextRequest, focus: string[], query: string, range: DateRange | null): Promise<{ nodes: ContextNode[] }> {
    const focusSet = new Set(focus);
    const cands = await this.graph(tenantId, focus);
    const period = range ? { occurred_after: range.after, occurred_before: range.before } : {};
    const pool = Math.min(300, Math.max(30, req.limit * 3));
    // The best matches overall and, with a period, the best within it (search/period-rank.ts periodPools).
    const overall = query ? await this.d.search.rank(tenantId, query, req.mode, { tags: req.tags }) : [];
    const top: CalibratedHit[] = periodPools(overall, query && range ? await this.d.search.rank(tenantId, query, req.mode, { tags: req.tags, ...period }) : [], pool);
    const cards = new Map((await this.d.repo.cardsBySeq(tenantId, top.map((h) => h.seq))).map((c) => [c.id, c]));
    // A period with nothing to match (no words besides the date): its latest nodes.
    if (range && !query) for (const c of await this.d.repo.cards(tenantId, await this.d.repo.inRange(tenantId, range.after ?? '0000', range.before ?? '9999', pool))) cards.set(c.id, c);
    for (const c of await this.d.repo.cards(tenantId, [...cands.keys()].filter((id) => !cards.has(id)))) cards.set(c.id, c);

    const hitOf = new Map(top.map((h) => [h.seq, h]));
    const terms = contentWords(query);
    const out: ContextNode[] = [];
    const exact = new Map<string, number>();
    for (const card of cards.values()) {
      if (card.status === 'dismissed' || focusSet.has(card.id) || !hasTags(card, req.tags)) continue;
      const hit = hitOf.get(card.seq);
      const g = cands.get(card.id);
      const rel = hit?.score ?? 0;
      const reasons = [...(g?.reasons.slice(0, MAX_SIGNAL_REASONS) ?? [])];
      if (hit?.keyword) reasons.push('keyword_match');
      if (hit?.semantic) reasons.push('semantic_match');
      let score = focus.length ? 0.5 * rel + 0.5 * (g?.graph ?? 0) : rel;
      if (range) {
        // Dated in the period: first. Only mentioning a date in it: a tie-breaker (search/period-rank.ts).
        const p = periodScore(score, card, range);
        if (p.inPeriod) reasons.push(`date_match:${range.said}`);
        score = p.score;
      }
      if (score <= 0 && !range) continue;
      // Ties only: a validated note, or one in an active project, first.
      const tie = (card.status === 'validated' ? 0.01 : 0) + (card.active_project ? 0.01 : 0);
      if (card.status === 'validated') reasons.push('validated');
      if (card.active_project) reasons.push('active_project');
      out.push(this.entry(card, (score + tie) / 1.02, reasons));
      exact.set(card.id, (score + tie) / 1.02);
    }
    const searchOrder = new Map(top.map((h, i) => [h.seq, i]));
    const position = new Map([...cards.values()].filter((c) => searchOrder.has(c.seq)).map((c) => [c.id, searchOrder.get(c.seq)!]));
    const shown = rank(out, req.limit, exact, position);
    const seqOf = new Map([...cards.values()].map((c) => [c.id, c.seq]));
    const byMeaning = query && this.d.search.matchedPassages ? await this.d.search.matchedPassages(tenantId, query, shown.map((n) => seqOf.get(n.id)).filter((s) => s !== undefined)) : new Map();
    const meaning = new Map(shown.filter((n) => byMeaning.has(seqOf.get(n.id))).map((n) => [n.id, byMeaning.get(seqOf.get(n.id))!]));
    return { nodes: await this.withPassages(tenantId, shown, terms, meaning) };
  }

  /**
   * The passages of the nodes shown: the best two for the query's words (the opening one
   * without a query), and the passage of a long note that matched by meaning: first when no
   * passage holds the query's words, else in place of the second.
   */
  private async withPassages(tenantId: string, nodes: ContextNode[], terms: string[], byMeaning = new Map<string, { start: number; end: number }>()): Promise<ContextNode[]> {
    const bodies = await this.d.repo.bodies(tenantId, nodes.map((n) => n.id));
    const marked = await this.d.highlights?.highlightsFor(tenantId, nodes.map((n) => n.id)) ?? new Map();
    for (const n of nodes) {
      const body = bodies.get(n.id) ?? '';
      const [field, text] = body.trim() ? (['body', body] as const) : n.summary.trim() ? (['summary', n.summary] as const) : (['title', n.title] as const);
      const words = bestPassages(text, terms, terms.length ? MAX_PASSAGES : 1);
      const meant = field === 'body' ? byMeaning.get(n.id) : undefined;
      const chosen: Array<{ text: string; start: number; end: number }> = words;
      if (meant && meant.end <= text.length && !words.some((p) => p.start < meant.end && meant.start < p.end)) {
        const passage = { text: text.slice(meant.start, meant.end), start: meant.start, end: meant.end };
        chosen.splice(0, chosen.length, ...(words[0] && words[0].score > 0 ? [words[0], passage] : [passage, ...words.slice(0, MAX_PASSAGES - 1).filter((p) => p.score > 0)]));
      }
      n.passages = chosen.slice(0, MAX_PASSAGES).map((p) => ({ text: p.text, start: p.start, end: p.end, field }));
      n.highlights = (marked.get(n.id) ?? []).filter((h: { orphaned?: boolean }) => !h.orphaned).map((h: { id: string; text: string; note: string | null }) => ({ id: h.id, text: h.text, note: h.note ?? null }));
      const met = annotationMatches(n.highlights, terms);
      if (met.length) n.annotation_matches = met;
    }
    return nodes;
  }

  /** Graph: 1 and 2 hops out from the focus nodes. */
  private async graph(tenantId: string, focus: string[]): Promise<Map<string, Candidate>> {
    const focusSet = new Set(focus);
    const cands = new Map<string, Candidate>();
    const get = (id: string) => {
      let c = cands.get(id);
      if (!c) cands.set(id, (c = { graph: 0, semantic: 0, reasons: [] }));
      return c;
    };
    const hop1 = new Set<string>();
    for (const e of await this.d.links.edgesFrom(tenantId, focus, MAX_EDGES)) {
      if (focusSet.has(e.target_id)) continue;
      const c = get(e.target_id);
      c.graph = 1 - (1 - c.graph) * (1 - HOP1);
      reason(c, `focus_neighbour:1hop:${e.type}`);
      hop1.add(e.target_id);
    }
    for (const e of await this.d.links.edgesFrom(tenantId, [...hop1].slice(0, 500), MAX_EDGES)) {
      if (focusSet.has(e.target_id)) continue;
      const c = get(e.target_id);
      c.graph = 1 - (1 - c.graph) * (1 - HOP2);
      reason(c, `focus_neighbour:2hop:${e.type}`);
    }
    return cands;
  }

  /** The focus nodes' centroid, searched around on the note scale (one k-NN however many focus nodes). */
  private async anchors(tenantId: string, focus: string[]): Promise<{ vector: Float32Array; scale: Scale }[]> {
    const focusVectors: Float32Array[] = [];
    for (const id of focus) {
      const v = await this.d.vectors.get(tenantId, id);
      if (v) focusVectors.push(v);
    }
    const centre = centroid(focusVectors);
    return centre ? [{ vector: centre, scale: (await this.d.calibration()).note }] : [];
  }

  private boosts(card: NodeCard, now: number): { score: number; reasons: string[] } {
    const age = Math.max(0, now - Date.parse(card.updated_at));
    const recency = Number.isFinite(age) ? 0.5 ** (age / HALF_LIFE_MS) : 0;
    const reasons: string[] = [];
    if (card.status === 'validated') reasons.push('validated');
    if (card.active_project) reasons.push('active_project');
    if (age < RECENT_MS) reasons.push('recent');
    const score = 0.05 * (card.status === 'validated' ? 1 : 0) + 0.05 * (card.active_project ? 1 : 0) + 0.05 * recency;
    return { score, reasons };
  }

  /** Nothing to anchor on: recent validated nodes first, then recent raw ones. */
  private async recentValidated(tenantId: string, limit: number, tags?: string[]): Promise<ContextNode[]> {
    const want = tags?.length ? limit * 20 : limit * 3;
    const ids = await this.d.repo.recent(tenantId, 'validated', want);
    if (ids.length < limit) ids.push(...await this.d.repo.recent(tenantId, 'raw', want));
    const now = this.d.clock.now();
    const out = (await this.d.repo
      .cards(tenantId, ids))
      .filter((card) => hasTags(card, tags))
      .map((card) => {
        const b = this.boosts(card, now);
        // The same boosts, scaled to [0,1] since no relevance signal exists here.
        return this.entry(card, b.score / 0.15, b.reasons);
      });
    return this.withPassages(tenantId, rank(out, limit), []);
  }

  private entry(card: NodeCard, score: number, reasons: string[]): ContextNode {
    return {
      id: card.id,
      title: card.title,
      summary: card.summary,
      score: roundScore(Math.min(1, Math.max(0, score))),
      reasons,
      passages: [],
      highlights: [],
      tags: JSON.parse(card.tags) as string[],
      created_at: card.created_at,
      updated_at: card.updated_at,
      occurred_at: card.occurred_at ?? null,
    };
  }
}

const MAX_PASSAGES = 2;

function hasTags(card: NodeCard, tags: string[] | undefined): boolean {
  if (!tags?.length) return true;
  const own = new Set(JSON.parse(card.tags) as string[]);
  return tags.every((t) => own.has(t));
}

function reason(c: Candidate, r: string): void {
  if (!c.reasons.includes(r)) c.reasons.push(r);
}

/**
 * Best first. `exact`: the scores before rounding for the response (two nodes 0.00004 apart
 * keep their order, as search ranks them). Equal scores: in search's order (`position`), so
 * context never reorders what search ranked level; then the later-dated node; then by id.
 */
function rank(nodes: ContextNode[], limit: number, exact?: Map<string, number>, position?: Map<string, number>): ContextNode[] {
  const date = (n: ContextNode) => n.occurred_at ?? n.created_at;
  const score = (n: ContextNode) => exact?.get(n.id) ?? n.score;
  const pos = (n: ContextNode) => position?.get(n.id) ?? Number.MAX_SAFE_INTEGER;
  return nodes.sort((a, b) => score(b) - score(a) || pos(a) - pos(b) || date(b).localeCompare(date(a)) || a.id.localeCompare(b.id)).slice(0, limit);
}
