// Pseudo-relevance feedback for the keyword side: the first pass's best few nodes are taken
// as relevant, terms frequent in them (and, for Bo1, rare in the tenant) are chosen with
// weights, and the first pass's hits are scored again with the original query and those
// terms together. Two ways of choosing:
//   rm3  the relevance model (Lavrenko & Croft; RM3 as Anserini runs it): each feedback
//        node's terms as a distribution (weighted tf / its total), weighted by the node's
//        first-pass score; the `terms` most probable, normalised to sum to 1
//   bo1  Bose-Einstein divergence from randomness (Amati; as Terrier runs it): tfx = the
//        term's frequency in the feedback nodes, Pn = its frequency in the tenant / N,
//        w = tfx·log2((1 + Pn)/Pn) + log2(1 + Pn); the `terms` heaviest, normalised
// The second pass never adds a node: it re-scores only the first pass's hits, which all
// hold an original query term (rescore()). The second pass is RM3's interpolated query as
// Anserini scores it (each term's BM25 times its weight: the original terms 1/|q| each, the
// expansion's weights summing to 1), multiplied by |q| so it stays in BM25's units and the
// absolute keyword score (read against the original query's attainable maximum) keeps
// its meaning:
//   score = α·bm25(q) + (1 − α)·|q|·Σ_t w_t·bm25(t)          (α = `originalWeight`)
// A weighted term scores by its own idf, so a common term chosen by feedback weighs
// little. Bo1 chooses differently and is scored the same way. Pure; measured in
// docs/search-quality.md ("Pseudo-relevance feedback"): served for long queries only
// (FEEDBACK_SERVED), as it lowered every lab collection's short queries.
import { stemmer } from 'stemmer';
import { STOPWORDS } from '../text.js';
import { contribution } from './bm25.js';
import type { ScoredSeq } from './top-k.js';

export type FeedbackMethod = 'rm3' | 'bo1';

export interface FeedbackSettings {
  method: FeedbackMethod;
  /** Feedback nodes: the first pass's best this many. */
  docs: number;
  /** Expansion terms kept. */
  terms: number;
  /** α: the original query's share of the second pass's score. */
  originalWeight: number;
  /** Only queries of at least this many terms (content words) get feedback; 0: all. */
  minTerms: number;
}

export const FEEDBACK_DEFAULTS: Record<FeedbackMethod, FeedbackSettings> = {
  rm3: { method: 'rm3', docs: 10, terms: 10, originalWeight: 0.5, minTerms: 0 },
  bo1: { method: 'bo1', docs: 3, terms: 10, originalWeight: 0.5, minTerms: 0 },
};

/**
 * What is served unless RHIZOME_SEARCH_FEEDBACK says otherwise: RM3 from the best 10, 20
 * terms, the original query weighing 0.7, for queries of 15 content words or more (a
 * paragraph describing a need, as CISI's; no question of the lab collections is that long).
 * Measured in docs/search-quality.md ("Pseudo-relevance feedback").
 */
export const FEEDBACK_SERVED = 'rm3:10:20:0.7:15';

/** Candidate terms read for Bo1's tenant statistics, most frequent in the feedback nodes first (bounds one query's reads). */
export const MAX_CANDIDATES = 300;

/**
 * A setting as written in configuration: `off` (or empty), `rm3`, `bo1`, or
 * `method:docs:terms:originalWeight[:minTerms]` (e.g. `rm3:5:20:0.6`, `rm3:10:20:0.7:12`);
 * null: off. Throws on anything else.
 */
export function parseFeedback(text: string | undefined): FeedbackSettings | null {
  const s = (text ?? '').trim().toLowerCase();
  if (s === '' || s === 'off' || s === 'none') return null;
  const [method, docs, terms, weight, minTerms, ...rest] = s.split(':');
  if ((method !== 'rm3' && method !== 'bo1') || rest.length) throw new Error(`feedback: expected off, rm3, bo1 or method:docs:terms:weight[:minTerms], got "${text}"`);
  const d = FEEDBACK_DEFAULTS[method];
  const out: FeedbackSettings = {
    method,
    docs: docs === undefined ? d.docs : Number(docs),
    terms: terms === undefined ? d.terms : Number(terms),
    originalWeight: weight === undefined ? d.originalWeight : Number(weight),
    minTerms: minTerms === undefined ? d.minTerms : Number(minTerms),
  };
  if (!Number.isInteger(out.docs) || out.docs < 1 || out.docs > 100) throw new Error(`feedback: docs must be 1–100, got "${docs}"`);
  if (!Number.isInteger(out.terms) || out.terms < 1 || out.terms > 100) throw new Error(`feedback: terms must be 1–100, got "${terms}"`);
  if (!(out.originalWeight >= 0 && out.originalWeight <= 1)) throw new Error(`feedback: weight must be 0–1, got "${weight}"`);
  if (!Number.isInteger(out.minTerms) || out.minTerms < 0 || out.minTerms > 64) throw new Error(`feedback: minTerms must be 0–64, got "${minTerms}"`);
  return out;
}

export const formatFeedback = (f: FeedbackSettings | null) => (f === null ? 'off' : formatSetting(f));
const formatSetting = (f: FeedbackSettings) => `${f.method}:${f.docs}:${f.terms}:${f.originalWeight}${f.minTerms ? `:${f.minTerms}` : ''}`;

/** One feedback node: its first-pass score and its terms (the engine's indexed form) with their column-weighted frequency. */
export interface FeedbackDoc {
  score: number;
  tf: Map<string, number>;
}

/** A chosen term and its weight (the weights sum to 1). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

const STOP_STEMS: ReadonlySet<string> = new Set([...STOPWORDS, ...[...STOPWORDS].map((w) => stemmer(w))]);
const TERM = /^[\p{L}\p{N}]{2,20}$/u;

/** Whether an indexed term may be chosen: 2–20 letters or digits, not all digits, not a stopword (or its stem). */
export function usableTerm(term: string): boolean {
  return TERM.test(term) && !/^\p{N}+$/u.test(term) && !STOP_STEMS.has(term);
}

/** Terms the feedback nodes hold that may be chosen, most frequent across them first (ties: alphabetical), at most `max`. */
export function candidateTerms(docs: FeedbackDoc[], max = MAX_CANDIDATES): string[] {
  const tfx = new Map<string, number>();
  for (const d of docs) for (const [t, f] of d.tf) if (f > 0 && usableTerm(t)) tfx.set(t, (tfx.get(t) ?? 0) + f);
  return [...tfx].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, max).map(([t]) => t);
}

/** RM3's relevance model over the feedback nodes: the `k` most probable usable terms, weights summing to 1. */
export function rm3Terms(docs: FeedbackDoc[], k: number): WeightedTerm[] {
  const p = new Map<string, number>();
  const scoreSum = docs.reduce((s, d) => s + Math.max(0, d.score), 0);
  for (const d of docs) {
    let len = 0;
    for (const [t, f] of d.tf) if (usableTerm(t)) len += f;
    if (len <= 0) continue;
    const pq = scoreSum > 0 ? Math.max(0, d.score) / scoreSum : 1 / docs.length;
    for (const [t, f] of d.tf) if (f > 0 && usableTerm(t)) p.set(t, (p.get(t) ?? 0) + (f / len) * pq);
  }
  return topWeights(p, k);
}

/** Bo1 over the feedback nodes: `stats(term)` gives the term's frequency in the tenant (cf) and `n` its nodes; weights summing to 1. */
export function bo1Terms(docs: FeedbackDoc[], k: number, n: number, cf: (term: string) => number, candidates = candidateTerms(docs)): WeightedTerm[] {
  const w = new Map<string, number>();
  if (n <= 0) return [];
  for (const t of candidates) {
    let tfx = 0;
    for (const d of docs) tfx += d.tf.get(t) ?? 0;
    const pn = cf(t) / n;
    if (!(tfx > 0) || !(pn > 0)) continue;
    w.set(t, tfx * Math.log2((1 + pn) / pn) + Math.log2(1 + pn));
  }
  return topWeights(w, k);
}

function topWeights(w: Map<string, number>, k: number): WeightedTerm[] {
  const top = [...w].filter(([, x]) => x > 0).sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, k);
  const sum = top.reduce((s, [, x]) => s + x, 0);
  return sum > 0 ? top.map(([term, x]) => ({ term, weight: x / sum })) : [];
}

/** An expansion term as the second pass reads it: weight, idf, and each hit's weighted frequency of it (absent: 0). */
export interface ExpansionPostings {
  weight: number;
  idf: number;
  tf: Map<number, number>;
}

/**
 * The first pass's hits scored again with the expansion (see the head of the file), best
 * first (ties: smaller seq). Only these hits: feedback re-orders what the query found and
 * never brings in a node that holds none of its terms. `queryTerms`: |q|, the query's
 * phrases; `len(seq)`: a node's length.
 */
export function rescore(hits: ScoredSeq[], expansion: ExpansionPostings[], originalWeight: number, queryTerms: number, len: (seq: number) => number, avgdl: number): ScoredSeq[] {
  if (expansion.length === 0 || hits.length === 0) return hits;
  const scale = (1 - originalWeight) * queryTerms;
  const out = hits.map((h) => {
    let e = 0;
    for (const x of expansion) {
      const f = x.tf.get(h.seq);
      if (f) e += x.weight * contribution(x.idf, f, len(h.seq), avgdl);
    }
    return { seq: h.seq, score: originalWeight * h.score + scale * e };
  });
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
