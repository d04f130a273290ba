// Hybrid ranking on absolute scores (replaces per-query min-max fusion):
//   score = a · keyword + (1 - a) · semantic,   a = hybridKeywordWeight(query) (0.8 or 0.7)
// keyword  = keywordScore (keyword-score.ts); semantic = semanticEvidence (calibration.ts) of
// the node's own cosine to the query — every keyword hit gets its cosine, not only those in
// the k-NN pool — both absolute in [0, 1], so the fused score means the same across
// queries. A hit only the semantic side found must clear the model's abstention gate; every
// keyword hit is kept. The semantic side hands its weight to the keyword side only when it
// is absent for the whole query (no query vector, no vectors in the tenant); with no keyword
// match at all the calibrated semantic score alone ranks (a paraphrase). So a node's score
// does not depend on what else matched. Pure functions.

import { keywordWeight } from './fusion.js';

/**
 * The keyword weight, by the query's number of content terms: 0.8 for a short look-up
 * (≤ 4 terms), 0.7 for a longer question, where BM25 spreads over loosely related words and
 * the embedding's sense of the whole question helps more. The same rule as the previous
 * method's (chosen in the first ranking lab, fusion.ts), now on absolute scores: it depends
 * on the query alone, so a node's score still does not depend on the other nodes. Against
 * a constant 0.8 in the same run: CISI +0.3%, Debian +0.1%, pydoc −0.2% (all within noise),
 * and with it the calibrated rule is at or above min-max on all three collections
 * (`npm run eval`; RHIZOME_EVAL_SWEEP=1 re-checks the constants).
 */
export function hybridKeywordWeight(contentTermCount: number): number {
  return keywordWeight(contentTermCount);
}

export interface SideHit {
  seq: number;
  /** Absolute score in [0, 1]. */
  score: number;
  /** The side's raw value (BM25 or cosine): breaks ties, so order within a side is kept. */
  raw: number;
}

export interface CalibratedHit {
  seq: number;
  score: number;
  keyword: boolean;
  semantic: boolean;
}

/**
 * Fuses keyword hits (all kept) with semantic hits (only those whose cosine cleared the
 * floor should be passed in, see clearsFloor). `alpha` is the keyword weight (the caller
 * passes 1 when the query has no semantic side at all); with no keyword hit the semantic
 * score alone ranks. A semantic hit the keyword side did not find is kept only when its raw
 * cosine exceeds `semanticOnlyMin` (the abstention gate, see abstentionFloor).
 */
export function fuseCalibrated(keyword: SideHit[], semantic: SideHit[], alpha: number, semanticOnlyMin = -Infinity): CalibratedHit[] {
  const a = keyword.length === 0 ? 0 : alpha;
  const k = new Map(keyword.map((h) => [h.seq, h]));
  const s = new Map(semantic.map((h) => [h.seq, h]));
  const hits: (CalibratedHit & { tie: number })[] = [];
  for (const seq of new Set([...k.keys(), ...s.keys()])) {
    const kh = k.get(seq);
    const sh = s.get(seq);
    if (!kh && !(sh!.raw > semanticOnlyMin)) continue;
    const score = a * (kh?.score ?? 0) + (1 - a) * (sh?.score ?? 0);
    hits.push({ seq, score: Number.isFinite(score) ? score : 0, keyword: kh !== undefined, semantic: sh !== undefined, tie: (kh ? 1 : 0) + (sh?.raw ?? 0) });
  }
  hits.sort((x, y) => y.score - x.score || y.tie - x.tie || x.seq - y.seq);
  return hits.map(({ tie: _tie, ...h }) => h);
}
