// Binary-relevance ranking metrics.

/** nDCG@k: DCG of the ranking over the DCG of a perfect one (all relevant first). */
export function ndcgAt(ranked: string[], relevant: Set<string>, k = 10): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, r) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(r + 2);
  });
  let ideal = 0;
  for (let r = 0; r < Math.min(k, relevant.size); r++) ideal += 1 / Math.log2(r + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

/** recall@k: share of the relevant documents found in the top k. */
export function recallAt(ranked: string[], relevant: Set<string>, k = 100): number {
  if (relevant.size === 0) return 0;
  let hits = 0;
  for (const id of ranked.slice(0, k)) if (relevant.has(id)) hits++;
  return hits / relevant.size;
}

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
