// What an answer is drawn from: the question ranked as GET /nodes ranks it (hybrid, the
// semantic gate, the filters applied to the candidates), the best few notes read whole. A
// date said in the question ("last May", "in 2022") puts that period's notes first, as
// POST /context does: the question ranked whole and within the period, then ordered by
// search/period-rank.ts (occurred_after/occurred_before in the filters restrict instead).
import type { ContextRepo } from '../../repos/context.repo.js';
import type { NodeFilter } from '../../repos/nodes.repo.js';
import { meaningLine, type AnswerSource } from '../../search/answer/extract.js';
import type { CalibratedHit } from '../../search/calibrated-fusion.js';
import { roundScore } from '../../search/score.js';
import { periodFirst, periodPools } from '../../search/period-rank.js';
import { parseQueryDates, type DateRange } from '../../search/query-dates.js';
import type { SearchService } from '../nodes/search.service.js';

/** Notes read for an answer: the answer quotes at most three sentences; eight leaves room for the one that says most. */
export const SOURCES = 8;
/** Nearest notes offered as "maybe related" when the notes do not say. */
export const MAYBE_RELATED = 3;

export interface AskFilter {
  para_item_id?: string;
  tags?: string[];
  occurred_after?: string;
  occurred_before?: string;
}

export type Ranker = Pick<SearchService, 'rankWithEvidence' | 'sides' | 'termRarity'>;

export interface Retrieved {
  sources: AnswerSource[];
  /** Per source: which sides of search found it (the eval compares rules on them). */
  sides: Array<{ keyword: boolean; semantic: boolean }>;
  /** Per source: its cosine to the question, and the model's floor and the tenant's gate (the eval compares lines between them). */
  cosines: number[];
  floor: number;
  gate: number;
  /** Ranked below the sources read (for "maybe related"). */
  rest: CalibratedHit[];
  /** When the question said a period (used, or overridden by the filters): the question without its date words (empty: only a date). */
  undated?: string;
}

/** Candidates ordered by the period, from each ranking (overall and within it): context's least pool. */
const PERIOD_POOL = 30;

export async function retrieve(search: Ranker, repo: ContextRepo, tenantId: string, question: string, filter: AskFilter, now: Date): Promise<Retrieved> {
  const nodeFilter: NodeFilter = { ...filter };
  const dates = parseQueryDates(question, now);
  const range = filter.occurred_after || filter.occurred_before ? null : dates.range;
  const ranked = await search.rankWithEvidence(tenantId, question, nodeFilter);
  const { gate, floor } = ranked;
  const { hits, cosine } = range ? await inPeriodFirst(search, repo, tenantId, question, nodeFilter, range, ranked) : ranked;
  const top = hits.slice(0, SOURCES);
  const cards = new Map((await repo.cardsBySeq(tenantId, top.map((h) => h.seq))).map((c) => [c.seq, c]));
  const live = top.filter((h) => cards.get(h.seq) && cards.get(h.seq)!.status !== 'dismissed');
  const bodies = await repo.bodies(tenantId, live.map((h) => cards.get(h.seq)!.id));
  // Meaning vouches for a note when its own cosine clears a line between the model's floor and
  // the tenant's semantic gate: a question about something else leaves the words to decide,
  // whatever faint likeness every note bears it.
  const line = meaningLine(floor, gate);
  const sources = live.map((h): AnswerSource => {
    const card = cards.get(h.seq)!;
    const body = bodies.get(card.id) ?? '';
    const [field, text] = body.trim() ? (['body', body] as const) : card.summary.trim() ? (['summary', card.summary] as const) : (['title', card.title] as const);
    return { node_id: card.id, title: card.title, relevance: h.score, byMeaning: (cosine.get(h.seq) ?? -Infinity) > line, text, field };
  });
  return { sources, cosines: live.map((h) => cosine.get(h.seq) ?? -Infinity), floor, gate, sides: live.map((h) => ({ keyword: h.keyword, semantic: h.semantic })), rest: hits.slice(SOURCES, SOURCES + MAYBE_RELATED), ...(dates.range ? { undated: dates.text } : {}) };
}

/**
 * The hits with the period's first: the best matches overall and the best within the period
 * (a month's notes are not crowded out by better matches from other months), scored for the
 * period as POST /context scores them (search/period-rank.ts), so the answer hears them first.
 */
async function inPeriodFirst(search: Ranker, repo: ContextRepo, tenantId: string, question: string, filter: NodeFilter, range: DateRange, overall: { hits: CalibratedHit[]; cosine: Map<number, number> }) {
  const within = await search.rankWithEvidence(tenantId, question, { ...filter, occurred_after: range.after, occurred_before: range.before });
  const pool = periodPools(overall.hits, within.hits, PERIOD_POOL);
  const cards = new Map((await repo.cardsBySeq(tenantId, pool.map((h) => h.seq))).map((c) => [c.seq, c]));
  return { hits: periodFirst(pool, cards, range), cosine: new Map([...overall.cosine, ...within.cosine]) };
}

/**
 * The nearest notes when nothing answers: the notes search did rank (they matched a word or
 * two), else the nearest by meaning below the gate. Offered to read, never as an answer.
 */
export async function maybeRelated(search: Ranker, repo: ContextRepo, tenantId: string, question: string, filter: AskFilter, retrieved: Retrieved): Promise<Array<{ node_id: string; title: string; score: number }>> {
  const ranked = retrieved.sources.map((s) => ({ node_id: s.node_id, title: s.title, score: roundScore(s.relevance) }));
  if (ranked.length >= MAYBE_RELATED) return ranked.slice(0, MAYBE_RELATED);
  const sides = await search.sides(tenantId, question, { ...filter }, 'semantic', MAYBE_RELATED + ranked.length);
  const seen = new Set(ranked.map((r) => r.node_id));
  const cards = new Map((await repo.cardsBySeq(tenantId, sides.semantic.map((h) => h.seq))).map((c) => [c.seq, c]));
  for (const h of sides.semantic) {
    const c = cards.get(h.seq);
    if (!c || c.status === 'dismissed' || seen.has(c.id)) continue;
    ranked.push({ node_id: c.id, title: c.title, score: roundScore(Math.max(0, h.score)) });
    seen.add(c.id);
  }
  return ranked.slice(0, MAYBE_RELATED);
}
