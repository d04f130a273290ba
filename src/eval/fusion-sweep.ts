// Fusion variants scored on the raw sides recorded during a search evaluation (set
// RHIZOME_EVAL_SWEEP=1): how the served rule was chosen, re-checkable in one run.
import { clearsFloor, semanticScore } from '../search/calibration.js';
import { fuseCalibrated, type SideHit } from '../search/calibrated-fusion.js';
import { contentTerms } from '../search/fts-query.js';
import { keywordWeight } from '../search/fusion.js';
import { KEYWORD_TAU } from '../search/keyword-score.js';
import { mean, ndcgAt } from './metrics.js';
import type { QueryTrace } from './search-eval.js';

type Rule = (t: QueryTrace) => { seq: number; score: number }[];

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

const convex = (alpha: number | null, tau = KEYWORD_TAU): Rule => (t) => {
  const { k, s } = sides(t, tau);
  return fuseCalibrated(k, s, alpha ?? keywordWeight(contentTerms(t.text).length));
};

export const VARIANTS: Record<string, Rule> = {
  'convex adaptive (0.8/0.7)': convex(null),
  'convex 0.6': convex(0.6),
  'convex 0.7': convex(0.7),
  'convex 0.8': convex(0.8),
  'convex 0.9': convex(0.9),
  'convex adaptive, tau 0.15': convex(null, 0.15),
  'convex adaptive, tau 0.5': convex(null, 0.5),
  'noisy-or beta 0.3': noisyOr(0.3),
  'noisy-or beta 0.5': noisyOr(0.5),
  'noisy-or beta 0.7': noisyOr(0.7),
  'noisy-or beta 0.5, tau 0.5': noisyOr(0.5, 0.5),
};

export function sweep(collection: string, traces: QueryTrace[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, rule] of Object.entries(VARIANTS)) {
    out[name] = Math.round(mean(traces.map((t) => ndcgAt(rule(t).slice(0, 10).map((h) => t.idOf.get(h.seq)!), t.relevant, 10))) * 1e4) / 1e4;
  }
  console.log(JSON.stringify({ kind: 'fusion_sweep', collection, ndcg10: out }));
  return out;
}
