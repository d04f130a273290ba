// The fusions the product's calibrated fusion (src/search/calibrated-fusion.ts) was measured
// against, kept as references for `npm run eval` and the benchmarks; nothing in src/ uses them.
//
// Convex fusion of min-max normalised scores (Bruch et al., "An Analysis of Fusion
// Functions for Hybrid Retrieval", 2023) instead of reciprocal rank fusion: RRF gives the
// semantic list's rank 1 the same weight as the keyword list's rank 1 however weak the
// embedding match is, which with the bundled small model costs 15-18% nDCG@10 on short
// known-item queries, where BM25 is already strong. A convex mix keeps the score gaps.
import { NORMALISE_DEPTH, type RankedHit } from '../../src/search/fusion.js';

export interface FusedHit {
  seq: number;
  score: number;
  keyword: boolean;
  semantic: boolean;
}

/**
 * Maps a best-first list to [0, 1] over its top `depth`: best = 1, the depth-th = 0.
 * Deeper hits go below 0 (their order is kept for tie-breaking, see fuseConvex).
 */
export function minMaxNormalise(list: RankedHit[], depth = NORMALISE_DEPTH): Map<number, number> {
  const value = new Map<number, number>();
  if (list.length === 0) return value;
  const hi = list[0].score;
  const lo = list[Math.min(depth, list.length) - 1].score;
  const span = hi - lo;
  for (const h of list) value.set(h.seq, span > 0 ? (h.score - lo) / span : 1);
  return value;
}

/**
 * score = alpha * keyword + (1 - alpha) * semantic, each min-max normalised over its top
 * `depth` and clamped at 0 (so a hit absent from a list, or deep in it, gets nothing from
 * that side). Hits that tie at 0 on both sides keep their order by the unclamped values.
 * An empty side hands all the weight to the other, so a query with no keyword match (a
 * paraphrase) or a node set with no vectors yet still ranks sensibly.
 */
export function fuseConvex(keyword: RankedHit[], semantic: RankedHit[], alpha: number, depth = NORMALISE_DEPTH): FusedHit[] {
  const a = keyword.length === 0 ? 0 : semantic.length === 0 ? 1 : alpha;
  const k = minMaxNormalise(keyword, depth);
  const s = minMaxNormalise(semantic, depth);
  const lowest = (m: Map<number, number>) => {
    let min = 0;
    for (const v of m.values()) if (v < min) min = v;
    return min;
  };
  const kFloor = lowest(k);
  const sFloor = lowest(s);
  const hits: (FusedHit & { tie: number })[] = [];
  for (const seq of new Set([...k.keys(), ...s.keys()])) {
    const kv = k.get(seq);
    const sv = s.get(seq);
    hits.push({
      seq,
      score: a * Math.max(0, kv ?? 0) + (1 - a) * Math.max(0, sv ?? 0),
      keyword: kv !== undefined,
      semantic: sv !== undefined,
      tie: a * (kv ?? kFloor) + (1 - a) * (sv ?? sFloor),
    });
  }
  hits.sort((x, y) => y.score - x.score || y.tie - x.tie || x.seq - y.seq);
  return hits.map(({ tie: _tie, ...h }) => h);
}

/** Reciprocal rank fusion (Cormack et al., 2009): kept as the measured reference in `npm run eval`. */
export function fuseReciprocalRank(keyword: RankedHit[], semantic: RankedHit[], k = 60): FusedHit[] {
  const out = new Map<number, FusedHit>();
  const add = (list: RankedHit[], side: 'keyword' | 'semantic') =>
    list.forEach((h, rank) => {
      const f = out.get(h.seq) ?? { seq: h.seq, score: 0, keyword: false, semantic: false };
      f.score += 1 / (k + rank + 1);
      f[side] = true;
      out.set(h.seq, f);
    });
  add(keyword, 'keyword');
  add(semantic, 'semantic');
  return [...out.values()].sort((a, b) => b.score - a.score || a.seq - b.seq);
}
