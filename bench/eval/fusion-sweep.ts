// Fusion variants scored on the raw sides recorded during a search evaluation (set
// RHIZOME_EVAL_SWEEP=1): how the served rule was chosen, re-checkable in one run. Every
// variant is printed with its nDCG@10 on all the collection's queries and on the odd and
// even query positions, next to the previous method (per-query min-max) on the same traces.
import { ABSTAIN_RISK, abstentionFloor, clearsFloor, semanticEvidence, semanticScore, type Scale } from '../../src/search/calibration.js';
import { fuseCalibrated, hybridKeywordWeight, type SideHit } from '../../src/search/calibrated-fusion.js';
import { contentTerms } from '../../src/search/fts-query.js';
import { keywordWeight } from '../../src/search/fusion.js';
import { fuseConvex } from './reference-fusion.js';
import { KEYWORD_TAU } from '../../src/search/keyword-score.js';
import { rankSides } from '../../src/services/nodes/search.service.js';
import { mean, ndcgAt } from './metrics.js';
import type { QueryTrace } from './search-eval.js';

type Hit = { seq: number; score: number; keyword?: boolean; semantic?: boolean };
type Rule = (t: QueryTrace) => Hit[];

const gateOf = (t: QueryTrace, risk: number | null) => (t.sides.scale ? (risk === null ? t.sides.scale.floor : abstentionFloor(t.sides.scale, t.sides.vectors, risk)) : Infinity);

const keywordSide = (t: QueryTrace, tau = KEYWORD_TAU): SideHit[] =>
  t.sides.keyword.map((h) => ({ seq: h.seq, raw: h.score, score: t.sides.maxBm25 > 0 ? 1 - Math.exp(-Math.min(1, h.score / t.sides.maxBm25) / tau) : 0 }));

function sides(t: QueryTrace, tau = KEYWORD_TAU): { k: SideHit[]; s: SideHit[] } {
  const sc = t.sides.scale;
  const s = sc ? t.sides.semantic.filter((h) => clearsFloor(h.score, sc)).map((h) => ({ seq: h.seq, raw: h.score, score: semanticScore(h.score, sc) })) : [];
  return { k: keywordSide(t, tau), s };
}

function noisyOr(beta: number, tau = KEYWORD_TAU): Rule {
  return (t) => {
    const { k, s } = sides(t, tau);
    const km = new Map(k.map((h) => [h.seq, h.score]));
    const sm = new Map(s.map((h) => [h.seq, h.score]));
    return [...new Set([...km.keys(), ...sm.keys()])]
      .map((seq) => ({ seq, score: 1 - (1 - (km.get(seq) ?? 0)) * (1 - beta * (sm.get(seq) ?? 0)), keyword: km.has(seq), semantic: sm.has(seq) }))
      .sort((a, b) => b.score - a.score || a.seq - b.seq);
  };
}

const convex = (alpha: number | null, tau = KEYWORD_TAU, risk: number | null = 0.05): Rule => (t) => {
  const { k, s } = sides(t, tau);
  return fuseCalibrated(k, s, s.length === 0 ? 1 : (alpha ?? keywordWeight(contentTerms(t.text).length)), gateOf(t, risk));
};

/**
 * A family of absolute rules: for a keyword hit, `a·keyword + (1−a)·sem(cos)`; a hit only
 * the semantic side found is kept when its cosine clears the abstention gate and scores
 * `(1−a)·sem(cos)`; with no keyword hit at all, semanticScore alone. `exact`: a keyword hit
 * outside the semantic pool gets its own cosine (sides.keywordCosine) instead of nothing.
 */
function absolute(weight: number | ((t: QueryTrace) => number), sem: (cos: number, sc: Scale, t: QueryTrace) => number, exact: boolean, risk: number | null = ABSTAIN_RISK, combineWith?: (a: number) => (k: number, s: number) => number): Rule {
  return (t) => {
    const a = typeof weight === 'number' ? weight : weight(t);
    const combine = combineWith ? combineWith(a) : (k: number, s: number) => a * k + (1 - a) * s;
    const sc = t.sides.scale;
    const k = keywordSide(t);
    if (!sc) return k.map((h) => ({ seq: h.seq, score: h.score, keyword: true }));
    const gate = gateOf(t, risk);
    const cos = new Map(t.sides.semantic.map((h) => [h.seq, h.score]));
    if (k.length === 0) {
      // No keyword match: the calibrated semantic score alone, over the gate.
      return t.sides.semantic.filter((h) => h.score > gate).map((h) => ({ seq: h.seq, score: semanticScore(h.score, sc), keyword: false, semantic: true }));
    }
    const km = new Map(k.map((h) => [h.seq, h]));
    const own = new Map((t.sides.keywordCosine ?? []).map((h) => [h.seq, h.score]));
    const out: (Hit & { tie: number })[] = [];
    for (const seq of new Set([...km.keys(), ...cos.keys()])) {
      const kh = km.get(seq);
      let c = cos.get(seq);
      if (c === undefined && exact) c = own.get(seq);
      if (!kh && !(c! > gate)) continue;
      const s = c === undefined ? 0 : sem(c, sc, t);
      out.push({ seq, score: combine(kh?.score ?? 0, s), keyword: kh !== undefined, semantic: c !== undefined && clearsFloor(c, sc), tie: (kh?.raw ?? 0) + (c ?? 0) });
    }
    return out.sort((x, y) => y.score - x.score || y.tie - x.tie || x.seq - y.seq);
  };
}

const calibrated = (c: number, sc: Scale) => (clearsFloor(c, sc) ? semanticScore(c, sc) : 0);
/** Linear from the floor (0) to cosine 1 (1): no compression above the related ceiling. */
const linear = (c: number, sc: Scale) => (clearsFloor(c, sc) ? semanticEvidence(c, sc) : 0);
/** Linear from the unrelated median (PARA's zero: a typical unrelated text) to cosine 1. */
const fromMedian = (c: number, sc: Scale) => Math.max(0, Math.min(1, (c - sc.unrelated_median) / Math.max(1e-6, 1 - sc.unrelated_median)));
/** How far above the tenant's typical note the node is, in the query's own spread (clamped z / 4). */
const specific = (z: number) => (c: number, _sc: Scale, t: QueryTrace) => (t.background && t.background.std > 0 ? Math.max(0, Math.min(1, (c - t.background.mean) / (z * t.background.std))) : 0);

export const GATES: Record<string, number | null> = { 'floor only (p99 of unrelated pairs)': null, 'risk 0.01': 0.01, 'risk 0.05': 0.05, 'risk 0.2': 0.2, 'risk 1': 1 };

export const VARIANTS: Record<string, Rule> = {
  'previous: min-max (reference)': (t) => fuseConvex(t.sides.keyword, t.sides.semantic, keywordWeight(contentTerms(t.text).length)),
  'served': (t) => rankSides(t.sides, 'hybrid'),
  'convex by query length (0.8/0.7)': convex(null),
  'convex 0.8': convex(0.8),
  'convex 0.9': convex(0.9),
  'convex 0.9, tau 0.15': convex(0.9, 0.15),
  'convex 0.9, tau 1': convex(0.9, 1),
  'noisy-or beta 0.3': noisyOr(0.3),
  'noisy-or beta 0.5': noisyOr(0.5),
};
for (const a of [0.9, 0.85, 0.8, 0.75]) {
  VARIANTS[`calibrated ${a}, exact cosine of keyword hits`] = absolute(a, calibrated, true);
  VARIANTS[`linear cosine ${a}`] = absolute(a, linear, false);
  VARIANTS[`linear cosine ${a}, exact cosine of keyword hits`] = absolute(a, linear, true);
  VARIANTS[`linear from unrelated median ${a}, exact`] = absolute(a, fromMedian, true);
  const beta = Math.round((1 - a) * 2 * 100) / 100;
  VARIANTS[`noisy-or beta ${beta}, linear, exact`] = absolute(a, linear, true, ABSTAIN_RISK, () => (k, s) => 1 - (1 - k) * (1 - beta * s));
  for (const z of [3, 4, 6]) VARIANTS[`specificity z/${z} ${a}, exact`] = absolute(a, specific(z), true);
}

for (const [short, long] of [[0.8, 0.7], [0.8, 0.75], [0.85, 0.75], [0.85, 0.8], [0.8, 0.78]]) {
  VARIANTS[`linear cosine by query length ${short}/${long}, exact`] = absolute((t) => (contentTerms(t.text).length <= 4 ? short : long), linear, true);
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export function sweep(collection: string, all: QueryTrace[]): Record<string, number> {
  const traces = all.filter((t) => !t.foreign);
  const foreign = all.filter((t) => t.foreign);
  const perQuery = (rule: Rule) => traces.map((t) => ndcgAt(rule(t).slice(0, 10).map((h) => t.idOf.get(h.seq)!), t.relevant, 10));
  const summary = (xs: number[]) => ({ all: r4(mean(xs)), odd: r4(mean(xs.filter((_, i) => i % 2 === 1))), even: r4(mean(xs.filter((_, i) => i % 2 === 0))) });
  const noSemanticOnly = (rule: Rule, ts: QueryTrace[]) => r4(ts.filter((t) => !rule(t).some((h) => h.semantic && !h.keyword)).length / Math.max(1, ts.length));
  const out: Record<string, number> = {};
  const reference = perQuery(VARIANTS['previous: min-max (reference)']);
  for (const [name, rule] of Object.entries(VARIANTS)) {
    const xs = perQuery(rule);
    const s = summary(xs);
    out[name] = s.all;
    // Paired standard error of the per-query difference to the previous method: a change
    // within about two of these is noise.
    const d = xs.map((x, i) => x - reference[i]);
    const dm = mean(d);
    const se = Math.sqrt(mean(d.map((x) => (x - dm) ** 2)) / Math.max(1, d.length - 1));
    console.log(JSON.stringify({ kind: 'fusion_variant', collection, variant: name, ndcg10: s.all, odd: s.odd, even: s.even, diff: r4(dm), diff_se: r4(se), foreign_no_semantic_only: noSemanticOnly(rule, foreign) }));
  }
  for (const [name, risk] of Object.entries(GATES)) {
    const rule = absolute((t) => hybridKeywordWeight(contentTerms(t.text).length), linear, true, risk);
    console.log(
      JSON.stringify({
        kind: 'gate_sweep',
        collection,
        gate: name,
        ndcg10: r4(mean(perQuery(rule))),
        foreign_no_semantic_only: noSemanticOnly(rule, foreign),
        own_no_semantic_only: noSemanticOnly(rule, traces),
      }),
    );
  }
  return out;
}
