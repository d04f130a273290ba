import { describe, expect, it } from 'vitest';
import type { Scale } from '../../src/search/calibration.js';
import { gateLine, LONG_NOTE_CHARS, SHORT_NOTE_CHARS, tenantGate } from '../../src/search/tenant-gate.js';
import { rankSides, type SearchSides } from '../../src/services/nodes/search.service.js';

const scale: Scale = { floor: 0.3, ceiling: 0.6, auc: 0.95, unrelated_median: 0.12, related_median: 0.45, pairs: { related: 1, unrelated: 1 }, tail_mu: 0.1, tail_sigma: 0.1 };
/** Probes' best cosines 0.30, 0.31, … 0.49: 60th percentile 0.414, 90th 0.471. */
const probes = Array.from({ length: 20 }, (_, i) => 0.3 + i / 100);
const BEST_OF_N = 0.59;

describe('tenantGate', () => {
  it('short notes: the probes decide, and the semantic mode speaks where search does', () => {
    const g = tenantGate(probes, scale, SHORT_NOTE_CHARS - 50, BEST_OF_N);
    expect(g.speak).toBeCloseTo(0.414, 3);
    expect(g.list).toBeCloseTo(0.395, 3);
    expect(g.mode).toBe(g.speak);
  });

  it('long notes: search keeps the best-of-N line; the semantic mode speaks from the probes\' 90th percentile', () => {
    const g = tenantGate(probes, scale, LONG_NOTE_CHARS + 100, BEST_OF_N);
    expect(g.speak).toBe(BEST_OF_N);
    expect(g.list).toBe(BEST_OF_N);
    expect(g.mode).toBeCloseTo(0.471, 3);
    // A query whose best match (0.52) is closer than nine in ten unrelated questions get, but
    // under the best-of-N line: the semantic mode lists, a hybrid result takes no hit by meaning alone.
    expect(gateLine(0.52, g, 'semantic')).toBeCloseTo(0.471, 3);
    expect(gateLine(0.52, g, 'hybrid')).toBe(Infinity);
    // An unrelated question (best 0.45, as the probes reach): nothing in either.
    expect(gateLine(0.45, g, 'semantic')).toBe(Infinity);
    expect(gateLine(0.45, g, 'hybrid')).toBe(Infinity);
    // Past the best-of-N line both speak.
    expect(gateLine(0.62, g, 'hybrid')).toBe(BEST_OF_N);
  });

  it('the semantic mode\'s line is never under the model\'s floor', () => {
    const low = probes.map((p) => p - 0.25);
    expect(tenantGate(low, scale, LONG_NOTE_CHARS, BEST_OF_N).mode).toBe(scale.floor);
  });
});

describe('rankSides with a tenant gate', () => {
  const g = tenantGate(probes, scale, LONG_NOTE_CHARS + 100, BEST_OF_N);
  const sides: SearchSides = {
    keyword: [{ seq: 9, score: 4 }],
    maxBm25: 10,
    semantic: [
      { seq: 1, score: 0.52 },
      { seq: 2, score: 0.5 },
      { seq: 3, score: 0.44 },
    ],
    keywordCosine: [{ seq: 9, score: 0.35 }],
    scale,
    gate: g,
    vectors: 900,
    queryTerms: 2,
  };

  it('the semantic mode lists the notes past its line, nearest first', () => {
    expect(rankSides(sides, 'semantic').map((h) => h.seq)).toEqual([1, 2]);
  });

  it('hybrid keeps the keyword hit and takes none by meaning alone', () => {
    expect(rankSides(sides, 'hybrid').map((h) => h.seq)).toEqual([9]);
  });
});
