// BM25 exactly as FTS5's bm25() computes it (fts5_aux.c), operation for operation, so a
// ranking from kept postings is FTS5's own to the last bit when the contributions are
// summed in the query's phrase order (FTS5 does the same). PostgreSQL's term tables carry
// the same statistics (N, total length, df, weighted tf, length), so both engines rank
// with these functions. Pure.
import { BM25_B, BM25_K1, fts5Idf } from '../keyword-score.js';

export { fts5Idf as idf };

const K = BM25_K1 + 1.0;
const KB = 1 - BM25_B;

/** One phrase's contribution in one node: idf · f(k1+1) / (f + k1(1 − b + b·D/avgdl)). */
export function contribution(idf: number, f: number, len: number, avgdl: number): number {
  return idf * ((f * K) / (f + BM25_K1 * (KB + (BM25_B * len) / avgdl)));
}

/** The most a phrase can add to any node holding it at most `maxF` times (a node of length 0 scores highest). */
export function upperBound(idf: number, maxF: number, avgdl: number): number {
  return maxF > 0 ? contribution(idf, maxF, 0, avgdl) : 0;
}
