// The two text signals that link suggestions and session context share, each in [0,1]:
// semantic = cosine similarity of embeddings, keyword = how many of the text's key terms a
// node contains (FTS5, stemmed), saturating at KEYWORD_SATURATION terms.
import type { ContextRepo } from '../repos/context.repo.js';
import { ftsAnyOf, ftsPhrase } from './text-terms.js';

/** The slice of the node vector store that ranking needs (s.vectors provides it). */
export interface VectorIndex {
  knn(tenantId: string, vector: Float32Array, k: number): Array<{ id: string; distance: number }> | Promise<Array<{ id: string; distance: number }>>;
  get(tenantId: string, nodeId: string): Float32Array | null | Promise<Float32Array | null>;
}

/** A node containing this many of the key terms (or all of them, if fewer) scores 1. */
export const KEYWORD_SATURATION = 6;

/** Cosine similarity from the cosine distance sqlite-vec reports, clamped to [0,1]. */
export function similarity(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

export async function semanticSignal(
  vectors: VectorIndex,
  tenantId: string,
  anchor: Float32Array,
  k: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const hit of await vectors.knn(tenantId, anchor, k)) out.set(hit.id, similarity(hit.distance));
  return out;
}

export interface KeywordHit {
  seq: number;
  score: number;
}

/** Keyword matches of `terms` (best BM25 first, at most k) with their term coverage. */
export function keywordSignal(repo: ContextRepo, tenantId: string, terms: string[], k: number): Map<string, KeywordHit> {
  const out = new Map<string, KeywordHit>();
  if (terms.length === 0) return out;
  const matches = repo.keywordMatches(tenantId, ftsAnyOf(terms), k);
  if (matches.length === 0) return out;
  const seqs = matches.map((m) => m.seq);
  const counts = new Map<number, number>();
  for (const term of terms) {
    for (const seq of repo.termHits(ftsPhrase(term), seqs)) counts.set(seq, (counts.get(seq) ?? 0) + 1);
  }
  const full = Math.min(terms.length, KEYWORD_SATURATION);
  for (const m of matches) out.set(m.id, { seq: m.seq, score: Math.min(1, (counts.get(m.seq) ?? 0) / full) });
  return out;
}
