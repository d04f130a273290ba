// POST /context: the nodes an agent's session should see, ranked and explained.
//
// Signals, each in [0,1]:
//   graph    — noisy-OR over paths from the focus nodes: 0.8 per 1-hop link, 0.4 per 2-hop path
//   semantic — strength of the cosine similarity to the focus nodes' centroid or to the query,
//              the better of the two, read through the model's calibration (the note-to-note
//              scale for the centroid, the query scale for the query: floor → 0, ceiling → 1;
//              nothing at or under the floor is drawn in, and near-empty nodes never are)
//   keyword  — share of the query's key terms the node contains (FTS5)
// score = (0.6·graph + 0.25·semantic + 0.15·keyword + 0.05·validated + 0.05·active project
//          + 0.05·recency) / 1.15, with recency = 0.5^(age / 30 days).
// Without a query, a direct neighbour of a focus node (0.6·0.8 = 0.48) therefore always outranks
// a node drawn in only by its similarity to the focus (at most 0.25 + 0.15 of boosts = 0.40).
// Boosts only reorder nodes a signal drew in; with no anchor at all (no known focus node,
// no query) the most recent validated nodes are returned, then recent raw ones.
import type { Clock } from '../../clock.js';
import { centroid } from '../../vectors/math.js';
import type { ContextRepo, NodeCard } from '../../repos/context.repo.js';
import type { LinksRepo } from '../../repos/links.repo.js';
import type { ContextMode } from '../../schemas/graph.js';
import { keywordSignal, semanticSignal, type VectorIndex } from './graph-signals.js';
import { roundScore } from '../../search/score.js';
import { keyTerms } from '../../search/text.js';
import type { Calibration, Scale } from '../../search/calibration.js';

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
}

export interface ContextNode {
  id: string;
  title: string;
  summary: string;
  score: number;
  reasons: string[];
}

interface Candidate {
  graph: number;
  semantic: number;
  keyword: number;
  reasons: string[];
}

export interface ContextDeps {
  links: LinksRepo;
  repo: ContextRepo;
  vectors: VectorIndex;
  clock: Clock;
  /** Embeds a query text; null when no model is available. */
  embedQuery(text: string): Promise<Float32Array | null>;
  /** The model's calibration (waits for the model). */
  calibration(): Promise<Calibration>;
}

export class ContextService {
  constructor(private readonly d: ContextDeps) {}

  async context(tenantId: string, req: ContextRequest): Promise<{ nodes: ContextNode[] }> {
    const requested = [...new Set(req.focus_node_ids ?? [])];
    const known = this.d.links.existingIds(tenantId, requested);
    const focus = requested.filter((id) => known.has(id)); // unknown and foreign ids: silently ignored
    const query = req.query?.trim() ?? '';
    if (focus.length === 0 && query === '') return { nodes: this.recentValidated(tenantId, req.limit) };

    const focusSet = new Set(focus);
    const cands = new Map<string, Candidate>();
    const get = (id: string) => {
      let c = cands.get(id);
      if (!c) cands.set(id, (c = { graph: 0, semantic: 0, keyword: 0, reasons: [] }));
      return c;
    };
    const reason = (c: Candidate, r: string) => {
      if (!c.reasons.includes(r)) c.reasons.push(r);
    };

    // Graph: 1 and 2 hops out from the focus nodes.
    const hop1 = new Set<string>();
    for (const e of this.d.links.edgesFrom(tenantId, focus, MAX_EDGES)) {
      if (focusSet.has(e.target_id)) continue;
      const c = get(e.target_id);
      c.graph = 1 - (1 - c.graph) * (1 - HOP1);
      reason(c, `focus_neighbour:1hop:${e.type}`);
      hop1.add(e.target_id);
    }
    for (const e of this.d.links.edgesFrom(tenantId, [...hop1].slice(0, 500), MAX_EDGES)) {
      if (focusSet.has(e.target_id)) continue;
      const c = get(e.target_id);
      c.graph = 1 - (1 - c.graph) * (1 - HOP2);
      reason(c, `focus_neighbour:2hop:${e.type}`);
    }

    const pool = Math.min(300, Math.max(30, req.limit * 3));
    if (req.mode !== 'keyword') {
      for (const anchor of await this.anchors(tenantId, focus, query)) {
        for (const [id, sim] of await semanticSignal(this.d.vectors, this.d.repo, tenantId, anchor.vector, pool + focus.length, anchor.scale)) {
          if (focusSet.has(id)) continue;
          const c = get(id);
          c.semantic = Math.max(c.semantic, sim);
          reason(c, 'semantic_match');
        }
      }
    }
    if (req.mode !== 'semantic' && query) {
      for (const [id, hit] of keywordSignal(this.d.repo, tenantId, keyTerms(query, 16), pool)) {
        if (focusSet.has(id)) continue;
        const c = get(id);
        c.keyword = Math.max(c.keyword, hit.score);
        reason(c, 'keyword_match');
      }
    }

    const now = this.d.clock.now();
    const out: ContextNode[] = [];
    for (const card of this.d.repo.cards(tenantId, [...cands.keys()])) {
      if (card.status === 'dismissed') continue;
      const c = cands.get(card.id)!;
      const b = this.boosts(card, now);
      const raw = 0.6 * c.graph + 0.25 * c.semantic + 0.15 * c.keyword + b.score;
      out.push(this.entry(card, raw / 1.15, [...c.reasons.slice(0, MAX_SIGNAL_REASONS), ...b.reasons]));
    }
    return { nodes: rank(out, req.limit) };
  }

  /**
   * Vectors to search around: the focus nodes' centroid and the query. One k-NN per anchor
   * kind keeps the cost flat however many focus nodes there are (each k-NN is a full scan).
   */
  private async anchors(tenantId: string, focus: string[], query: string): Promise<{ vector: Float32Array; scale: Scale }[]> {
    const out: { vector: Float32Array; scale: Scale }[] = [];
    const focusVectors: Float32Array[] = [];
    for (const id of focus) {
      const v = await this.d.vectors.get(tenantId, id);
      if (v) focusVectors.push(v);
    }
    const centre = centroid(focusVectors);
    const cal = centre || query ? await this.d.calibration() : null;
    if (centre && cal) out.push({ vector: centre, scale: cal.note });
    if (query && cal) {
      const v = await this.d.embedQuery(query);
      if (v) out.push({ vector: v, scale: cal.query });
    }
    return out;
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
  private recentValidated(tenantId: string, limit: number): ContextNode[] {
    const ids = this.d.repo.recent(tenantId, 'validated', limit * 3);
    if (ids.length < limit) ids.push(...this.d.repo.recent(tenantId, 'raw', limit * 3));
    const now = this.d.clock.now();
    const out = this.d.repo.cards(tenantId, ids).map((card) => {
      const b = this.boosts(card, now);
      // The same boosts, scaled to [0,1] since no relevance signal exists here.
      return this.entry(card, b.score / 0.15, b.reasons);
    });
    return rank(out, limit);
  }

  private entry(card: NodeCard, score: number, reasons: string[]): ContextNode {
    return {
      id: card.id,
      title: card.title,
      summary: card.summary,
      score: roundScore(Math.min(1, Math.max(0, score))),
      reasons,
    };
  }
}

function rank(nodes: ContextNode[], limit: number): ContextNode[] {
  return nodes.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}
