// The ranked-list shape both sides of a hybrid search hand to fusion, the depth scores are
// normalised over, and the query-adaptive keyword weight (search/calibrated-fusion.ts fuses).
// Leaning on the keyword side (alpha 0.7-0.8) never fell below BM25 on any of the three
// collections measured (README, search quality); the min-max and reciprocal-rank fusions it
// was measured against live with the eval in bench/eval/reference-fusion.ts.
export interface RankedHit {
  seq: number;
  score: number; // higher is better on each side
}

/** Scores are normalised over each list's top this-many: the part of a list that decides a first page. */
export const NORMALISE_DEPTH = 100;

/** Keyword weight by how many content terms the query has (see keywordWeight). */
export const SHORT_QUERY_TERMS = 4;
export const KEYWORD_WEIGHT_SHORT = 0.8;
export const KEYWORD_WEIGHT_LONG = 0.7;

/**
 * Query-adaptive keyword weight. Short queries are mostly look-ups of words the note
 * contains, where BM25 is precise; long natural-language questions spread BM25 over many
 * loosely related terms, where the embedding's sense of the whole question helps more.
 */
export function keywordWeight(contentTermCount: number): number {
  return contentTermCount <= SHORT_QUERY_TERMS ? KEYWORD_WEIGHT_SHORT : KEYWORD_WEIGHT_LONG;
}
