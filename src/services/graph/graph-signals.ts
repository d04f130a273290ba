// The two text signals that link suggestions and session context share, each in [0,1]:
// semantic = cosine similarity read through the embedding model's calibration (the floor
// measured on unrelated texts → 0, the related-topic ceiling → 1; see search/calibration.ts),
// nothing at or under the floor, and nothing for near-empty nodes (search/substance.ts);
// keyword = how many of the text's key terms (its rarest words that occur in the tenant's
// nodes) a node contains, saturating at KEYWORD_SATURATION terms.
import type { ContextRepo } from '../../repos/context.repo.js';
import { clearsFloor, semanticScore, type Scale } from '../../search/calibration.js';
import { contentWordCount, isLogLine, NEAR_EMPTY_WORDS } from '../../search/substance.js';
import { quoteTerm, stem, stemSet } from '../../search/text.js';
import type { NodeFilter } from '../../repos/nodes.repo.js';

/** The slice of the vector store (src/vectors/vector-store.ts) that ranking needs. */
export interface VectorIndex {
  knn(tenantId: string, vector: Float32Array, k: number): Array<{ id: string; seq?: number; distance: number }> | Promise<Array<{ id: string; seq?: number; distance: number }>>;
  get(tenantId: string, nodeId: string): Float32Array | null | Promise<Float32Array | null>;
}

/** A node containing this many of the key terms (or all of them, if fewer) scores 1. */
export const KEYWORD_SATURATION = 6;

/** Cosine similarity from the distance VectorStore.knn reports (1 - approximate cosine). */
export function cosine(distance: number): number {
  return 1 - distance;
}

/** How strongly a cosine similarity says "same topic" on the model's scale, in [0,1]; 0 at or under the floor. */
export function semanticStrength(cos: number, scale: Scale): number {
  return clearsFloor(cos, scale) ? semanticScore(cos, scale) : 0;
}

/**
 * Nodes near an anchor vector with their calibrated strength: only those above the floor,
 * and never a near-empty node (an image placeholder or a log line sits close to anything).
 */
export async function semanticSignal(
  vectors: VectorIndex,
  repo: ContextRepo,
  tenantId: string,
  anchor: Float32Array,
  k: number,
  scale: Scale,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const hits = (await vectors.knn(tenantId, anchor, k)).map((h) => ({ ...h, strength: semanticStrength(cosine(h.distance), scale) })).filter((h) => h.strength > 0);
  const empty = await nearEmptySeqs(repo, tenantId, hits.map((h) => h.seq).filter((s): s is number => s !== undefined));
  for (const hit of hits) if (hit.seq === undefined || !empty.has(hit.seq)) out.set(hit.id, hit.strength);
  return out;
}

/** Which of these nodes say too little to be drawn in by meaning. */
export async function nearEmptySeqs(repo: ContextRepo, tenantId: string, seqs: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const r of await repo.texts(tenantId, seqs)) if (contentWordCount(r.text) < NEAR_EMPTY_WORDS || isLogLine(r.bodyText || r.text)) out.add(r.seq);
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
/** Dismissed nodes are never suggested. */
const LIVE: NodeFilter = { status_not: 'dismissed' };

/** The keyword module's reads the signal needs (services/nodes/keyword-route.ts: quoted terms, seqs back). */
export interface KeywordReads {
  /** The best `limit` by BM25 alone (no feedback) under the filter. */
  keywordTop(tenantId: string, phrases: string[], f: NodeFilter, limit: number, feedback: null): Promise<{ hits: Array<{ seq: number }> }>;
  newestMatches(tenantId: string, phrases: string[], f: NodeFilter, limit: number): Promise<number[]>;
  termCounts(tenantId: string, phrases: string[]): Promise<number[]>;
}

/**
 * Keyword matches of `terms`, at most k, each with its coverage: how many of the key terms
 * (the rarest of `terms` that the tenant's nodes contain) it holds, out of all the terms
 * up to KEYWORD_SATURATION. The candidates are the BM25 best of an OR over the rarest
 * terms (as many as fit the budget), ranked by the keyword module as search ranks;
 * when even the rarest is very common, the newest nodes containing it.
 */
export async function keywordSignal(keywords: KeywordReads, repo: ContextRepo, tenantId: string, terms: string[], k: number): Promise<Map<string, KeywordHit>> {
  const out = new Map<string, KeywordHit>();
  const df = await keywords.termCounts(tenantId, terms.map(quoteTerm));
  const key = terms
    .map((term, i) => ({ term, i, df: Math.min(df[i], DF_CAP) }))
    .filter((x) => x.df > 0)
    .sort((a, b) => a.df - b.df || a.i - b.i)
    .slice(0, MAX_KEY_TERMS);
  if (key.length === 0) return out;

  let matches: number[];
  if (key[0].df >= DF_CAP) {
    matches = await keywords.newestMatches(tenantId, [quoteTerm(key[0].term)], LIVE, k);
  } else {
    const ranked: string[] = [];
    let rows = 0;
    for (const x of key) {
      if (ranked.length && rows + x.df > DF_BUDGET) break;
      ranked.push(x.term);
      rows += x.df;
    }
    matches = (await keywords.keywordTop(tenantId, ranked.map(quoteTerm), LIVE, k, null)).hits.map((h) => h.seq);
  }
  if (matches.length === 0) return out;

  // Coverage is measured on the candidates' own words (one read, instead of a query per term).
  const keyStems = key.map((x) => stem(x.term));
  // Words no node contains still count against coverage: one shared word in a long text is weak.
  const full = Math.min(terms.length, KEYWORD_SATURATION);
  const found = new Map((await repo.texts(tenantId, matches)).map((r) => [r.seq, r]));
  for (const seq of matches) {
    const r = found.get(seq);
    if (!r) continue; // deleted meanwhile
    const words = stemSet(r.text);
    out.set(r.id, { seq, score: Math.min(1, keyStems.filter((w) => words.has(w)).length / full) });
  }
  return out;
}
