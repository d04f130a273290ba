// The keyword side's absolute score: FTS5's BM25 for a node, read against the most the
// query could score in this tenant. FTS5 computes, for each query term i,
//   idf_i · f_i·(k1+1) / (f_i + k1·(1 - b + b·|D|/avgdl)),   idf_i = ln((N - n_i + 0.5)/(n_i + 0.5))
// (floored at 1e-6; f_i is the column-weighted count of the term in the node), so a node
// can never reach (k1+1)·Σ idf_i. ratio = bm25 / that maximum is in [0, 1) and depends
// only on the node, the query and the tenant's own statistics (N, n_i, avgdl), not on which
// other nodes happen to match. The score saturates it: 1 - exp(-ratio / KEYWORD_TAU).
// Reading it (average-length notes, all query terms equally rare):
//   every term once in the body                      ratio ≈ 0.45 → ≈ 0.8
//   a quarter of the terms, once in the body         ratio ≈ 0.11 → ≈ 0.3
//   every term in the title (weight 4)               ratio ≈ 0.77 → ≈ 0.94
// Pure functions.

/** bm25() column weights: title, summary, body, tags (the SQLite and PostgreSQL keyword indexes both use them). */
export const FIELD_WEIGHTS = [4.0, 2.0, 1.0, 3.0] as const;

export const BM25_K1 = 1.2; // FTS5's constants
export const BM25_B = 0.75;
/** Saturation: a node holding each query term once in an average-length body scores ≈ 0.8. */
export const KEYWORD_TAU = 0.28;

/** FTS5's idf for a term in `df` of `n` documents. */
export function fts5Idf(n: number, df: number): number {
  const idf = Math.log((n - df + 0.5) / (df + 0.5));
  return Number.isFinite(idf) && idf > 0 ? idf : 1e-6;
}

/** The BM25 no node can reach for a query whose terms have these document frequencies. */
export function maxAttainableBm25(n: number, dfs: number[]): number {
  let s = 0;
  for (const df of dfs) s += fts5Idf(n, df);
  return (BM25_K1 + 1) * s;
}

/** BM25 (higher is better, i.e. -bm25()) → absolute keyword relevance in [0, 1]. Never NaN. */
export function keywordScore(bm25: number, maxAttainable: number): number {
  if (!(maxAttainable > 0) || !Number.isFinite(bm25) || bm25 <= 0) return 0;
  const ratio = Math.min(1, bm25 / maxAttainable);
  return 1 - Math.exp(-ratio / KEYWORD_TAU);
}
