import { describe, expect, it } from 'vitest';
import { fuseConvex, fuseReciprocalRank, minMaxNormalise } from '../../bench/eval/reference-fusion.js';
import { keywordWeight, type RankedHit } from '../../src/search/fusion.js';

const list = (...pairs: [number, number][]): RankedHit[] => pairs.map(([seq, score]) => ({ seq, score }));

describe('minMaxNormalise', () => {
  it('maps the best to 1 and the depth-th to 0, deeper hits below 0', () => {
    const m = minMaxNormalise(list([1, 10], [2, 6], [3, 2], [4, 0]), 3);
    expect(m.get(1)).toBe(1);
    expect(m.get(2)).toBe(0.5);
    expect(m.get(3)).toBe(0);
    expect(m.get(4)).toBeLessThan(0);
  });
  it('gives a single hit (or equal scores) 1', () => {
    expect(minMaxNormalise(list([7, 3])).get(7)).toBe(1);
    expect([...minMaxNormalise(list([1, 2], [2, 2])).values()]).toEqual([1, 1]);
  });
});

describe('fuseConvex', () => {
  const kw = list([1, 12], [2, 8], [3, 4]);
  const sem = list([3, 0.9], [4, 0.8], [1, 0.3]);

  it('mixes normalised scores with the keyword weight and says which side matched', () => {
    const f = fuseConvex(kw, sem, 0.7);
    expect(f.map((h) => h.seq)).toEqual([1, 2, 3, 4]);
    expect(f[0]).toEqual({ seq: 1, score: 0.7, keyword: true, semantic: true });
    expect(f[1].score).toBeCloseTo(0.35); // 0.7 * 0.5 + 0.3 * 0 (absent from semantic)
    expect(f[2]).toMatchObject({ seq: 3, keyword: true, semantic: true });
    expect(f[2].score).toBeCloseTo(0.3); // 0.7 * 0 + 0.3 * 1
    expect(f[3]).toMatchObject({ seq: 4, keyword: false, semantic: true });
  });

  it('lets a strong semantic match win when the keyword weight is low', () => {
    expect(fuseConvex(kw, sem, 0.2)[0].seq).toBe(3);
  });

  it('hands all the weight to the other side when one is empty', () => {
    const semOnly = fuseConvex([], sem, 0.8);
    expect(semOnly.map((h) => h.seq)).toEqual([3, 4, 1]);
    expect(semOnly[1].score).toBeCloseTo(5 / 6);
    expect(fuseConvex(kw, [], 0.8).map((h) => h.score)).toEqual([1, 0.5, 0]);
    expect(fuseConvex([], [], 0.5)).toEqual([]);
  });

  it('keeps deep hits in order instead of tying them at zero', () => {
    const deepKw = list([1, 10], [2, 9], [3, 8], [4, 7]);
    const f = fuseConvex(deepKw, list([9, 1]), 0.7, 2);
    expect(f.map((h) => h.seq)).toEqual([1, 9, 2, 3, 4]);
  });
});

describe('keywordWeight', () => {
  it('leans harder on keywords for short queries', () => {
    expect(keywordWeight(1)).toBeGreaterThan(keywordWeight(12));
    expect(keywordWeight(4)).toBe(0.8);
    expect(keywordWeight(5)).toBe(0.7);
  });
});

describe('fuseReciprocalRank', () => {
  it('sums 1/(k + rank) over both lists', () => {
    const f = fuseReciprocalRank(list([1, 5], [2, 4]), list([2, 0.9]), 60);
    expect(f[0]).toMatchObject({ seq: 2, keyword: true, semantic: true });
    expect(f[0].score).toBeCloseTo(1 / 62 + 1 / 61);
  });
});
