// Fusion variants scored on the raw sides recorded during a search evaluation (set
// RHIZOME_EVAL_SWEEP=1): how the served rule was chosen, re-checkable in one run.
import { abstentionFloor, clearsFloor, semanticScore } from '../search/calibration.js';
import { fuseCalibrated, HYBRID_KEYWORD_WEIGHT, type SideHit } from '../search/calibrated-fusion.js';
import { contentTerms } from '../search/fts-query.js';
import { keywordWeight } from '../search/fusion.js';
import { KEYWORD_TAU } from '../search/keyword-score.js';
import { mean, ndcgAt } from './metrics.js';
import type { QueryTrace } from './search-eval.js';

type Rule = (t: QueryTrace) => { seq: number; score: number; keyword?: boolean; semantic?: boolean }[];

const gateOf = (t: QueryTrace, risk: number | null) => (t.sides.scale ? (risk === null ? t.sides.scale.floor : abstentionFloor(t.sides.scale, t.sides.vectors, risk)) : Infinity);

function sides(t: QueryTrace, tau = KEYWORD_TAU): { k: SideHit[]; s: SideHit[] } {
  const k = t.sides.keyword.map((h) => ({ seq: h.seq, raw: h.score, score: t.sides.maxBm25 > 0 ? 1 - Math.exp(-Math.min(1, h.score / t.sides.maxBm25) / tau) : 0 }));
  const sc = t.sides.scale;
  const s = sc ? t.sides.semantic.filter((h) => clearsFloor(h.score, sc)).map((h) => ({ seq: h.seq, raw: h.score, score: semanticScore(h.score, sc) })) : [];
  return { k, s };
}

function noisyOr(beta: number, tau = KEYWORD_TAU): Rule {
  return (t) => {
    const { k, s } = sides(t, tau);
    const km = new Map(k.map((h) => [h.seq, h.score]));
    const sm = new Map(s.map((h) => [h.seq, h.score]));
    return [...new Set([...km.keys(), ...sm.keys()])]
      .map((seq) => ({ seq, score: 1 - (1 - (km.get(seq) ?? 0)) * (1 - beta * (sm.get(seq) ?? 0)) }))
      .sort((a, b) => b.score - a.score || a.seq - b.seq);
  };
}

const convex = (alpha: number | null, tau = KEYWORD_TAU, risk: number | null = 0.05): Rule => (t) => {
  const { k, s } = sides(t, tau);
  return fuseCalibrated(k, s, alpha ?? keywordWeight(contentTerms(t.text).length), gateOf(t, risk));
};

export const GATES: Record<string, number | null> = { 'floor only (p99 of unrelated pairs)': null, 'risk 0.01': 0.01, 'risk 0.05': 0.05, 'risk 0.2': 0.2, 'risk 1': 1 };

export const VARIANTS: Record<string, Rule> = {
  'served: convex 0.9': convex(HYBRID_KEYWORD_WEIGHT),
  'convex by query length (0.8/0.7)': convex(null),
  'convex 0.6': convex(0.6),
  'convex 0.7': convex(0.7),
  'convex 0.8': convex(0.8),
  'convex 0.9': convex(0.9),
  'convex 0.9, tau 0.15': convex(0.9, 0.15),
  'convex 0.9, tau 1': convex(0.9, 1),
  'noisy-or beta 0.3': noisyOr(0.3),
  'noisy-or beta 0.5': noisyOr(0.5),
  'noisy-or beta 0.7': noisyOr(0.7),
  'noisy-or beta 0.5, tau 0.5': noisyOr(0.5, 0.5),
};

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export function sweep(collection: string, all: QueryTrace[]): Record<string, number> {
  const traces = all.filter((t) => !t.foreign);
  const foreign = all.filter((t) => t.foreign);
  const ndcg = (rule: Rule) => r4(mean(traces.map((t) => ndcgAt(rule(t).slice(0, 10).map((h) => t.idOf.get(h.seq)!), t.relevant, 10))));
  const out: Record<string, number> = {};
  for (const [name, rule] of Object.entries(VARIANTS)) out[name] = ndcg(rule);
  console.log(JSON.stringify({ kind: 'fusion_sweep', collection, ndcg10: out }));
  for (const [name, risk] of Object.entries(GATES)) {
    const rule = convex(HYBRID_KEYWORD_WEIGHT, KEYWORD_TAU, risk);
    const abstained = foreign.filter((t) => !rule(t).some((h) => h.semantic && !h.keyword)).length;
    const ownAbstained = traces.filter((t) => !rule(t).some((h) => h.semantic && !h.keyword)).length;
    console.log(
      JSON.stringify({
        kind: 'gate_sweep',
        collection,
        gate: name,
        ndcg10: ndcg(rule),
        foreign_no_semantic_only: r4(abstained / Math.max(1, foreign.length)),
        own_no_semantic_only: r4(ownAbstained / Math.max(1, traces.length)),
      }),
    );
  }
  return out;
}
