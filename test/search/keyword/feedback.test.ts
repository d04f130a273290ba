// Pseudo-relevance feedback's pure parts: which terms each method chooses and with what
// weights, the second pass that re-scores only the first pass's hits, and the setting parser.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { contribution } from '../../../src/search/keyword/bm25.js';
import { bo1Terms, candidateTerms, FEEDBACK_SERVED, type FeedbackDoc, parseFeedback, rescore, rm3Terms, usableTerm } from '../../../src/search/keyword/feedback.js';

const doc = (score: number, tf: Record<string, number>): FeedbackDoc => ({ score, tf: new Map(Object.entries(tf)) });

const DOCS = [
  doc(9, { retriev: 4, index: 3, the: 12, of: 8, inform: 2, 1987: 3 }),
  doc(6, { retriev: 2, index: 1, thi: 5, catalog: 3, inform: 1 }),
  doc(3, { librari: 4, catalog: 1, wa: 6, index: 1 }),
];

describe('choosing expansion terms', () => {
  it('leaves out stopwords (as written and as stemmed), bare numbers, one-letter and overlong terms', () => {
    expect(['the', 'of', 'thi', 'wa', '1987', 'x', 'a'.repeat(21)].filter(usableTerm)).toEqual([]);
    expect(['retriev', 'index', 'python3', 'ünicode'].every(usableTerm)).toBe(true);
    expect(candidateTerms(DOCS)).toEqual(['retriev', 'index', 'catalog', 'librari', 'inform']);
    expect(candidateTerms(DOCS, 2)).toEqual(['retriev', 'index']);
  });

  it('rm3: terms by their probability in the feedback nodes, each node weighted by its score; weights sum to 1', () => {
    const got = rm3Terms(DOCS, 3);
    expect(got.map((t) => t.term)).toEqual(['retriev', 'index', 'catalog']);
    expect(got.reduce((s, t) => s + t.weight, 0)).toBeCloseTo(1, 12);
    // By hand: P(retriev) = 4/9·9/18 + 2/7·6/18; P(index) = 3/9·9/18 + 1/7·6/18 + 1/6·3/18.
    const pr = (4 / 9) * 0.5 + (2 / 7) * (1 / 3);
    const pi = (3 / 9) * 0.5 + (1 / 7) * (1 / 3) + (1 / 6) * (1 / 6);
    expect(got[0].weight / got[1].weight).toBeCloseTo(pr / pi, 12);
  });

  it('bo1: a term frequent in the feedback nodes and rare in the tenant outweighs one common in both', () => {
    const cf: Record<string, number> = { index: 900, retriev: 40, catalog: 30, librari: 20, inform: 800 };
    const got = bo1Terms(DOCS, 5, 1000, (t) => cf[t] ?? 0);
    expect(got[0].term).toBe('retriev');
    expect(got.findIndex((t) => t.term === 'index')).toBeGreaterThan(got.findIndex((t) => t.term === 'catalog'));
    expect(got.reduce((s, t) => s + t.weight, 0)).toBeCloseTo(1, 12);
    const w = (tfx: number, pn: number) => tfx * Math.log2((1 + pn) / pn) + Math.log2(1 + pn);
    const byTerm = new Map(got.map((t) => [t.term, t.weight]));
    expect(byTerm.get('retriev')! / byTerm.get('catalog')!).toBeCloseTo(w(6, 0.04) / w(4, 0.03), 12);
    expect(bo1Terms(DOCS, 5, 0, () => 1)).toEqual([]);
  });

  it('is deterministic: ties go alphabetically, the same input gives the same terms and weights', () => {
    const tied = [doc(1, { beta: 2, alpha: 2, gamma: 2 })];
    expect(rm3Terms(tied, 2).map((t) => t.term)).toEqual(['alpha', 'beta']);
    expect(rm3Terms(DOCS, 5)).toEqual(rm3Terms([...DOCS], 5));
  });
});

describe('the second pass', () => {
  const hits = [
    { seq: 1, score: 5 },
    { seq: 2, score: 4 },
    { seq: 3, score: 3 },
  ];
  const len = (seq: number) => [0, 10, 10, 10][seq];

  it('re-scores the first pass hits only: a node holding an expansion term but no query term never enters', () => {
    // Node 9 holds the expansion term (and would top it), but is no first-pass hit.
    const expansion = [{ weight: 1, idf: 2, tf: new Map([[3, 4], [9, 10]]) }];
    const got = rescore(hits, expansion, 0.5, 2, len, 10);
    expect(got.map((h) => h.seq)).toEqual([3, 1, 2]);
    expect(got.some((h) => h.seq === 9)).toBe(false);
    // α·bm25 + (1 − α)·|q|·Σ w·bm25(t).
    const e = contribution(2, 4, 10, 10);
    expect(got[0].score).toBeCloseTo(0.5 * 3 + 0.5 * 2 * e, 12);
    expect(got[1].score).toBe(2.5);
  });

  it('keeps the first pass when there is no expansion, and weight 1 keeps its order', () => {
    expect(rescore(hits, [], 0.5, 2, len, 10)).toBe(hits);
    const expansion = [{ weight: 1, idf: 2, tf: new Map([[3, 4]]) }];
    expect(rescore(hits, expansion, 1, 2, len, 10).map((h) => h.seq)).toEqual([1, 2, 3]);
  });
});

describe('the setting', () => {
  it('reads off, a method, or method:docs:terms:weight, and refuses anything else', () => {
    expect(parseFeedback(undefined)).toBeNull();
    expect(parseFeedback('off')).toBeNull();
    expect(parseFeedback('rm3')).toEqual({ method: 'rm3', docs: 10, terms: 10, originalWeight: 0.5, minTerms: 0 });
    expect(parseFeedback('BO1:5:20:0.7')).toEqual({ method: 'bo1', docs: 5, terms: 20, originalWeight: 0.7, minTerms: 0 });
    for (const bad of ['rm4', 'rm3:0', 'rm3:5:20:1.5', 'bo1:5:20:0.5:1.5', 'bo1:5:20:0.5:1:2', 'rm3:x']) expect(() => parseFeedback(bad), bad).toThrow();
  });

  it('is RHIZOME_SEARCH_FEEDBACK (unset: the served RM3 for long queries; off: none), and a malformed one stops the start', () => {
    expect(loadConfig({ RHIZOME_DATA_DIR: '/tmp/x' }).searchFeedback).toBeUndefined();
    expect(parseFeedback(FEEDBACK_SERVED)).toEqual({ method: 'rm3', docs: 10, terms: 20, originalWeight: 0.7, minTerms: 15 });
    expect(parseFeedback(loadConfig({ RHIZOME_DATA_DIR: '/tmp/x', RHIZOME_SEARCH_FEEDBACK: 'off' }).searchFeedback)).toBeNull();
    expect(parseFeedback(loadConfig({ RHIZOME_DATA_DIR: '/tmp/x', RHIZOME_SEARCH_FEEDBACK: 'bo1:5:20:0.7' }).searchFeedback)?.method).toBe('bo1');
    expect(parseFeedback(loadConfig({ RHIZOME_DATA_DIR: '/tmp/x', RHIZOME_SEARCH_FEEDBACK: 'rm3:10:20:0.7:12' }).searchFeedback)?.minTerms).toBe(12);
    expect(() => loadConfig({ RHIZOME_DATA_DIR: '/tmp/x', RHIZOME_SEARCH_FEEDBACK: 'rm4' })).toThrow(/RHIZOME_SEARCH_FEEDBACK/);
  });
});
