import { describe, expect, it } from 'vitest';
import { hybridKeywordWeight } from '../../src/search/calibrated-fusion.js';
import { abstentionFloor, semanticEvidence, semanticScore, type Scale } from '../../src/search/calibration.js';
import { keywordScore } from '../../src/search/keyword-score.js';
import { rankSides, type SearchSides } from '../../src/services/nodes/search.service.js';

const scale: Scale = { floor: 0.4, ceiling: 0.6, auc: 0.95, unrelated_median: 0.12, related_median: 0.45, pairs: { related: 1, unrelated: 1 }, tail_mu: 0.1, tail_sigma: 0.1 };
const sides = (over: Partial<SearchSides>): SearchSides => ({ keyword: [], maxBm25: 10, semantic: [], keywordCosine: [], scale, vectors: 100, queryTerms: 2, ...over });
const HYBRID_KEYWORD_WEIGHT = hybridKeywordWeight(2);

describe('semanticEvidence', () => {
  it('is linear from the floor (0) to cosine 1 (1), keeps order above the ceiling, and is never NaN', () => {
    expect(semanticEvidence(0.4, scale)).toBe(0);
    expect(semanticEvidence(0.2, scale)).toBe(0);
    expect(semanticEvidence(1, scale)).toBe(1);
    expect(semanticEvidence(0.7, scale)).toBeCloseTo(0.5);
    // Above the ceiling the calibrated score flattens; the evidence keeps its slope.
    expect(semanticEvidence(0.8, scale) - semanticEvidence(0.7, scale)).toBeCloseTo(semanticEvidence(0.6, scale) - semanticEvidence(0.5, scale));
    expect(semanticScore(0.8, scale) - semanticScore(0.7, scale)).toBeLessThan(semanticEvidence(0.8, scale) - semanticEvidence(0.7, scale));
    for (const c of [NaN, Infinity, -Infinity]) expect(semanticEvidence(c, scale)).toBe(0);
    expect(semanticEvidence(0.5, { floor: NaN })).toBe(0);
    expect(semanticEvidence(1, { floor: 1 })).toBe(1);
  });
});

describe('hybrid ranking on absolute scores', () => {
  const kw = [
    { seq: 1, score: 6 },
    { seq: 2, score: 5 },
  ];

  it("a keyword hit's semantic side is its own cosine, whether or not it made the k-NN pool", () => {
    const inPool = rankSides(sides({ keyword: kw, semantic: [{ seq: 2, score: 0.7 }] }), 'hybrid');
    const outOfPool = rankSides(sides({ keyword: kw, semantic: [], keywordCosine: [{ seq: 2, score: 0.7 }] }), 'hybrid');
    expect(outOfPool).toEqual(inPool);
    const two = inPool.find((h) => h.seq === 2)!;
    expect(two.score).toBeCloseTo(HYBRID_KEYWORD_WEIGHT * keywordScore(5, 10) + (1 - HYBRID_KEYWORD_WEIGHT) * semanticEvidence(0.7, scale));
    expect(two).toMatchObject({ keyword: true, semantic: true });
    // The semantic side reorders keyword hits: node 2's closeness in meaning outweighs a small BM25 gap.
    expect(inPool.map((h) => h.seq)).toEqual([2, 1]);
  });

  it('a longer question gives meaning more weight: 0.8 / 0.2 up to four content words, 0.7 / 0.3 above', () => {
    const short = rankSides(sides({ keyword: kw, semantic: [{ seq: 2, score: 0.7 }], queryTerms: 4 }), 'hybrid').find((h) => h.seq === 2)!;
    const long = rankSides(sides({ keyword: kw, semantic: [{ seq: 2, score: 0.7 }], queryTerms: 5 }), 'hybrid').find((h) => h.seq === 2)!;
    expect(short.score).toBeCloseTo(0.8 * keywordScore(5, 10) + 0.2 * semanticEvidence(0.7, scale));
    expect(long.score).toBeCloseTo(0.7 * keywordScore(5, 10) + 0.3 * semanticEvidence(0.7, scale));
    expect(hybridKeywordWeight(1)).toBe(0.8);
    expect(hybridKeywordWeight(12)).toBe(0.7);
  });

  it('keeps every keyword hit; a semantic-only hit must clear the abstention gate', () => {
    const gate = abstentionFloor(scale, 100);
    const r = rankSides(sides({ keyword: kw, semantic: [{ seq: 3, score: gate - 0.01 }, { seq: 4, score: gate + 0.01 }] }), 'hybrid');
    expect(r.map((h) => h.seq).sort()).toEqual([1, 2, 4]);
    expect(r.find((h) => h.seq === 4)).toMatchObject({ keyword: false, semantic: true });
  });

  it('the keyword score stands alone only when the query has no semantic side at all', () => {
    const alone = rankSides(sides({ keyword: kw, scale: null }), 'hybrid');
    expect(alone[0].score).toBeCloseTo(keywordScore(6, 10));
    expect(rankSides(sides({ keyword: kw, vectors: 0 }), 'hybrid')[0].score).toBeCloseTo(keywordScore(6, 10));
    // With vectors but nothing near, the score reads the missing closeness (the order is the keyword order).
    const far = rankSides(sides({ keyword: kw, keywordCosine: [{ seq: 1, score: 0.1 }] }), 'hybrid');
    expect(far.map((h) => h.seq)).toEqual([1, 2]);
    expect(far[0].score).toBeCloseTo(HYBRID_KEYWORD_WEIGHT * keywordScore(6, 10));
  });

  it('with no keyword match the calibrated semantic score ranks alone (a paraphrase)', () => {
    const r = rankSides(sides({ semantic: [{ seq: 7, score: 0.9 }, { seq: 8, score: 0.65 }] }), 'hybrid');
    expect(r.map((h) => h.seq)).toEqual([7, 8]);
    expect(r[1].score).toBeCloseTo(semanticScore(0.65, scale));
  });

  it('never returns NaN, whatever the sides hold', () => {
    const r = rankSides(sides({ keyword: [{ seq: 1, score: NaN }, { seq: 2, score: Infinity }], maxBm25: 0, semantic: [{ seq: 1, score: NaN }], keywordCosine: [{ seq: 2, score: NaN }] }), 'hybrid');
    for (const h of r) expect(Number.isFinite(h.score)).toBe(true);
  });
});
