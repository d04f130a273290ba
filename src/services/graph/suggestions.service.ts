// GET /links/suggestions: nodes worth linking to a piece of text. Candidates come from the
// embedding neighbours of the text and from its keyword matches; each is scored
//   score = 0.55 · semantic + 0.45 · keyword
// where keyword = max(term coverage, share of the node's title the text mentions).
// semantic is the calibrated strength on the model's query-to-note scale (graph-signals.ts:
// the floor → 0, nothing under it, never a near-empty node). The stricter note-to-note
// scale was measured too strict for a captured page against a short note.
// Weak candidates (score < SUGGESTION_MIN_SCORE) are left out instead of padding the list,
// and a candidate drawn by meaning alone (no shared key term, its title not mentioned) must
// pass the gate search uses (search.service.ts semanticOnlyMin): where search abstains,
// suggestions do too.
import type { ContextRepo } from '../../repos/context.repo.js';
import type { Calibration, Scale } from '../../search/calibration.js';
import { type KeywordReads, keywordSignal, nearEmptySeqs, semanticSignal, semanticStrength, type VectorIndex } from './graph-signals.js';
import { keyTerms, stemSet, titleMention } from '../../search/text.js';
import { dot } from '../../vectors/math.js';
import { roundScore } from '../../search/score.js';

export const SUGGESTION_MIN_SCORE = 0.3;
const SEMANTIC_WEIGHT = 0.55;
const KEYWORD_WEIGHT = 0.45;
const MAX_TERMS = 16;

export interface Suggestion {
  node_id: string;
  title: string;
  score: number;
}

export interface SuggestionsDeps {
  repo: ContextRepo;
  /** Keyword candidates, ranked by the keyword module as search's are. */
  keywords: KeywordReads;
  vectors: VectorIndex;
  /** Embeds a query text; null when no model is available (keywords still answer). */
  embedQuery(text: string): Promise<Float32Array | null>;
  /** The model's calibration (waits for the model). */
  calibration(): Promise<Calibration>;
  /** The cosine a note drawn by meaning alone must exceed for this vector (search's gate). */
  semanticLine(tenantId: string, vector: Float32Array): Promise<number>;
}

export class SuggestionsService {
  constructor(private readonly d: SuggestionsDeps) {}

  async suggest(tenantId: string, text: string, limit: number): Promise<{ suggestions: Suggestion[] }> {
    const pool = Math.min(200, Math.max(40, limit * 4));
    const vector = await this.d.embedQuery(text);
    const cal = vector ? await this.d.calibration() : null;
    const scale = cal ? cal.query : null;
    const semantic = vector && scale ? await semanticSignal(this.d.vectors, this.d.repo, tenantId, vector, pool, scale) : new Map<string, number>();
    const keyword = await keywordSignal(this.d.keywords, this.d.repo, tenantId, keyTerms(text, MAX_TERMS), pool);
    const cosLine = vector && scale ? await this.d.semanticLine(tenantId, vector) : Infinity;
    const line = scale && Number.isFinite(cosLine) ? semanticStrength(cosLine, scale) : Infinity;

    const ids = [...new Set([...semantic.keys(), ...keyword.keys()])];
    const textStems = stemSet(text);
    const scored: Suggestion[] = [];
    const cards = await this.d.repo.cards(tenantId, ids);
    const empty = await nearEmptySeqs(this.d.repo, tenantId, cards.map((c) => c.seq));
    for (const card of cards) {
      if (card.status === 'dismissed') continue;
      let sem = semantic.get(card.id);
      if (sem === undefined && vector && scale && !empty.has(card.seq)) sem = await this.cosine(tenantId, card.id, vector, scale);
      const kw = Math.max(keyword.get(card.id)?.score ?? 0, titleMention(card.title, textStems));
      if (kw === 0 && !((sem ?? 0) > line)) continue; // meaning alone, and search would abstain
      const score = SEMANTIC_WEIGHT * (sem ?? 0) + KEYWORD_WEIGHT * kw;
      if (score >= SUGGESTION_MIN_SCORE) scored.push({ node_id: card.id, title: card.title, score: roundScore(score) });
    }
    scored.sort((a, b) => b.score - a.score || a.node_id.localeCompare(b.node_id));
    return { suggestions: scored.slice(0, limit) };
  }

  private async cosine(tenantId: string, nodeId: string, vector: Float32Array, scale: Scale): Promise<number> {
    const v = await this.d.vectors.get(tenantId, nodeId);
    return v && v.length === vector.length ? semanticStrength(dot(v, vector), scale) : 0;
  }
}
