// The decision rule on hand-made vectors: threshold, margin over the runner-up, centroid blend.
import { describe, expect, it } from 'vitest';
import { normalize } from '../../src/vectors/math.js';
import type { Calibration } from '../../src/search/calibration.js';
import { buildProfile, decide as decideWith, type ClassifierSettings } from '../../src/services/para/para-scoring.js';

const v = (...xs: number[]) => normalize(Float32Array.from(xs));
const cfg: ClassifierSettings = { threshold: 0.5, margin: 0.1, centroidHalfWeight: 4, maxCentroidWeight: 0.7 };
const p = (itemId: string, vector: Float32Array) => ({ itemId, vector, method: 'cosine:label' });
// Identity calibration (floor 0, ceiling 1): calibrated score = cosine, for readable numbers.
const scale = { floor: 0, ceiling: 1, auc: 1, unrelated_median: 0, related_median: 1, pairs: { related: 1, unrelated: 1 }, tail_mu: 0, tail_sigma: 0 };
const cal: Calibration = { model_id: 'test', query: scale, note: scale, set_hash: 'x' };
const decide = (a: Float32Array, b: Parameters<typeof decideWith>[1], c: ClassifierSettings) => decideWith(a, b, c, cal);

describe('decide', () => {
  it('picks the best item when it clears the threshold and beats the runner-up by the margin', () => {
    const d = decide(v(1, 0.2, 0), [p('a', v(1, 0, 0)), p('b', v(0, 1, 0))], cfg);
    expect(d?.itemId).toBe('a');
    expect(d!.score).toBeCloseTo(0.98, 2);
    expect(d!.runnerUp).toBeCloseTo(0.196, 2);
  });
  it('says nothing below the threshold', () => {
    expect(decide(v(0.4, 0, 1), [p('a', v(1, 0, 0)), p('b', v(0, 1, 0))], cfg)).toBeNull();
  });
  it('says nothing when the runner-up is within the margin', () => {
    expect(decide(v(1, 0.9, 0), [p('a', v(1, 0, 0)), p('b', v(0, 1, 0))], cfg)).toBeNull();
    expect(decide(v(1, 0.6, 0), [p('a', v(1, 0, 0)), p('b', v(0, 1, 0))], cfg)?.itemId).toBe('a');
  });
  it('with a single item only the threshold applies; vectors of another dimension are ignored', () => {
    expect(decide(v(1, 0.1), [p('a', v(1, 0))], cfg)?.runnerUp).toBeNull();
    expect(decide(v(0.4, 1), [p('a', v(1, 0))], cfg)).toBeNull(); // cos 0.37 < threshold, no runner-up needed
    expect(decide(v(1, 0.1), [p('a', v(1, 0, 0))], cfg)).toBeNull();
  });
  it('reads cosine through the model calibration (unrelated median → 0, ceiling → 1), and no calibration files nothing', () => {
    const high = { ...scale, floor: 0.99, unrelated_median: 0.95, ceiling: 1 };
    expect(decideWith(v(1, 0.2), [p('a', v(1, 0))], cfg, { ...cal, query: high })!.score).toBeCloseTo(0.61, 2); // cos 0.98: (0.98-0.95)/0.05
    expect(decideWith(v(1, 0.2), [p('a', v(1, 0))], { ...cfg, threshold: 0.7 }, { ...cal, query: high })).toBeNull();
    expect(decideWith(v(1, 0.4), [p('a', v(1, 0))], cfg, { ...cal, query: high })).toBeNull(); // cos 0.93: under the unrelated median
    expect(decideWith(v(1, 0), [p('a', v(1, 0))], cfg, null)).toBeNull();
  });
});

describe('buildProfile', () => {
  it('is the label vector alone until the item has nodes, then leans toward their centroid (capped)', () => {
    const label = v(1, 0);
    expect(buildProfile('a', label, [], cfg)).toEqual({ itemId: 'a', vector: label, method: 'cosine:label', centroidWeight: 0 });
    const one = buildProfile('a', label, [v(0, 1)], cfg); // w = 1/5
    expect(one.method).toBe('cosine:label+centroid(1)');
    expect(one.vector[0]).toBeGreaterThan(one.vector[1]);
    const many = buildProfile('a', label, Array.from({ length: 100 }, () => v(0, 1)), cfg); // w capped at 0.7
    expect(many.vector[1] / many.vector[0]).toBeCloseTo(0.7 / 0.3, 4);
  });
});
