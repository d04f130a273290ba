// The two text signals that link suggestions and session context share, each in [0,1]:
// semantic = cosine similarity of embeddings, stretched between a floor and a ceiling;
// keyword = how many of the text's key terms (its rarest words that occur in the tenant's
// nodes) a node contains, saturating at KEYWORD_SATURATION terms.
import type { ContextRepo } from '../../repos/context.repo.js';
import { ftsAnyOf, quoteTerm, stem, stemSet } from '../../search/text.js';

/** The slice of the vector store (src/vectors/vector-store.ts) that ranking needs. */
export interface VectorIndex {
  knn(tenantId: string, vector: Float32Array, k: number): Array<{ id: string; distance: number }> | Promise<Array<{ id: string; distance: number }>>;
  get(tenantId: string, nodeId: string): Float32Array | null | Promise<Float32Array | null>;
}

/** A node containing this many of the key terms (or all of them, if fewer) scores 1. */
export const KEYWORD_SATURATION = 6;

/** Cosine similarity from the distance VectorStore.knn reports (1 - approximate cosine). */
export function cosine(distance: number): number {
  return 1 - distance;
}

// Sentence embedders put unrelated texts around cosine 0–0.3 and close paraphrases above
// 0.6 (measured with use-lite), so raw cosine overstates weak matches: below the floor
// counts as nothing, at the ceiling as a full match.
const COSINE_FLOOR = 0.25;
const COSINE_CEILING = 0.75;

/** How strongly a cosine similarity says "same topic", in [0,1]. */
export function semanticStrength(cos: number): number {
  return Math.min(1, Math.max(0, (cos - COSINE_FLOOR) / (COSINE_CEILING - COSINE_FLOOR)));
}

export async function semanticSignal(
  vectors: VectorIndex,
  tenantId: string,
  anchor: Float32Array,
  k: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const hit of await vectors.knn(tenantId, anchor, k)) out.set(hit.id, semanticStrength(cosine(hit.distance)));
  return out;
}

export interface KeywordHit {
  seq: number;
  score: number;
}

/** The rarest terms present (at most this many) are the ones coverage is measured on. */
export const MAX_KEY_TERMS = 8;
/** Document frequencies are counted up to this; a term at the cap is "very common". */
const DF_CAP = 300;
/** BM25 ranks at most about this many matching rows (rarest terms first), keeping it fast at 100k nodes. */
const DF_BUDGET = 1500;

/**
 * Keyword matches of `terms`, at most k, each with its coverage: how many of the key terms
 * (the rarest of `terms` that the tenant's nodes contain) it holds, out of all the terms
 * up to KEYWORD_SATURATION. The candidates are the BM25 best of an OR over the rarest
 * terms (as many as fit the budget);
 * when even the rarest is very common, the newest nodes containing it.
 */
export function keywordSignal(repo: ContextRepo, tenantId: string, terms: string[], k: number): Map<string, KeywordHit> {
  const out = new Map<string, KeywordHit>();
  const key = terms
    .map((term, i) => ({ term, i, df: repo.docFrequency(tenantId, quoteTerm(term), DF_CAP) }))
    .filter((x) => x.df > 0)
    .sort((a, b) => a.df - b.df || a.i - b.i)
    .slice(0, MAX_KEY_TERMS);
  if (key.length === 0) return out;

  let matches: Array<{ id: string; seq: number }>;
  if (key[0].df >= DF_CAP) {
    matches = repo.newestMatches(tenantId, quoteTerm(key[0].term), k);
  } else {
    const ranked: string[] = [];
    let rows = 0;
    for (const x of key) {
      if (ranked.length && rows + x.df > DF_BUDGET) break;
      ranked.push(x.term);
      rows += x.df;
    }
    matches = repo.keywordMatches(tenantId, ftsAnyOf(ranked)!, k);
  }
  if (matches.length === 0) return out;

  // Coverage is measured on the candidates' own words (one read, instead of a query per term).
  const keyStems = key.map((x) => stem(x.term));
  // Words no node contains still count against coverage: one shared word in a long text is weak.
  const full = Math.min(terms.length, KEYWORD_SATURATION);
  const coverage = new Map<number, number>();
  for (const r of repo.texts(tenantId, matches.map((m) => m.seq))) {
    const words = stemSet(r.text);
    coverage.set(r.seq, Math.min(1, keyStems.filter((w) => words.has(w)).length / full));
  }
  for (const m of matches) out.set(m.id, { seq: m.seq, score: coverage.get(m.seq) ?? 0 });
  return out;
}
