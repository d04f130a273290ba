// Calibration of an embedding model's cosine similarities, so a semantic score means the
// same thing whatever model is configured. The project ships a calibration set
// (calibration-set.json: short query-like texts and note-like texts on 20 unrelated topics).
// Embedding it once per model gives two distributions:
//   unrelated — cosine of every pair of texts from different topics
//   related   — cosine of every pair of texts from the same topic
// floor   = the FLOOR_QUANTILE of the unrelated pairs: a similarity an unrelated text reaches
//           only 1 time in 100; a hit drawn by meaning alone must clear it.
// ceiling = the CEILING_QUANTILE of the related pairs: what a text on the same topic
//           typically reaches.
// semanticScore maps cosine piecewise linearly: floor → 0, ceiling → CEILING_SCORE (0.8),
// cosine 1 (the same text) → 1, so hits closer than related notes typically get keep
// their order instead of all reading 1 (measured: clamping at the ceiling cost 1% nDCG@10).
// Abstention: a hit drawn by meaning alone must beat not just one unrelated note but the
// best of the tenant's N notes, were they all unrelated. The upper tail of the unrelated
// similarities is fitted with a normal curve through its 90th and 99th percentiles, and
// the gate is the similarity the best of N unrelated notes exceeds with probability
// ABSTAIN_RISK (never below the floor). Pure functions.
import { createHash } from 'node:crypto';
import set from './calibration-set.json' with { type: 'json' };

export const FLOOR_QUANTILE = 0.99;
export const CEILING_QUANTILE = 0.9;
/** A model whose related pairs barely beat its unrelated ones still gets a usable span. */
export const MIN_SPAN = 0.05;
/** Chance that an unrelated query still draws a semantic-only hit from a tenant's notes. */
export const ABSTAIN_RISK = 0.05;
/** Changing the method recalibrates stored models too. */
const METHOD_VERSION = 2;

/** How one kind of comparison (a short query against a note, or a note against a note) behaves. */
export interface Scale {
  floor: number;
  ceiling: number;
  /** Share of (related, unrelated) pairs the model orders correctly: 0.5 = no better than chance. */
  auc: number;
  unrelated_median: number;
  related_median: number;
  pairs: { related: number; unrelated: number };
  /** Normal fit of the unrelated similarities' upper tail (through their p90 and p99). */
  tail_mu: number;
  tail_sigma: number;
}

export interface Calibration {
  model_id: string;
  /** A search query, a PARA item's label or a suggestion's text against a note. */
  query: Scale;
  /** A note (or the centre of several) against a note: session context. */
  note: Scale;
  /** Hash of the calibration set: a changed set recalibrates. */
  set_hash: string;
}

/** Used when a model cannot be calibrated: no cosine clears the floor, so nothing is drawn in by meaning alone. */
export const UNCALIBRATED: Calibration = {
  model_id: 'uncalibrated',
  query: { floor: 1, ceiling: 1, auc: 0.5, unrelated_median: 0, related_median: 0, pairs: { related: 0, unrelated: 0 }, tail_mu: 1, tail_sigma: 0 },
  note: { floor: 1, ceiling: 1, auc: 0.5, unrelated_median: 0, related_median: 0, pairs: { related: 0, unrelated: 0 }, tail_mu: 1, tail_sigma: 0 },
  set_hash: '',
};

export interface CalibrationText {
  topic: string;
  kind: 'query' | 'note';
  text: string;
}

export function calibrationTexts(): CalibrationText[] {
  const out: CalibrationText[] = [];
  for (const [topic, t] of Object.entries(set.topics as Record<string, { queries: string[]; notes: string[] }>)) {
    for (const text of t.queries) out.push({ topic, kind: 'query', text });
    for (const text of t.notes) out.push({ topic, kind: 'note', text });
  }
  return out;
}

export const CALIBRATION_SET_HASH = createHash('sha256').update(`${METHOD_VERSION}:${JSON.stringify(set.topics)}`).digest('hex').slice(0, 16);

/** The q-quantile of a list (linear interpolation); 0 for an empty list. */
export function quantile(xs: number[], q: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const pos = Math.min(1, Math.max(0, q)) * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** The calibration of a model from its vectors of calibrationTexts() (same order). */
export function calibrateFromVectors(modelId: string, texts: CalibrationText[], vectors: Float32Array[]): Calibration {
  const pairs = { query: { related: [] as number[], unrelated: [] as number[] }, note: { related: [] as number[], unrelated: [] as number[] } };
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      // Query-to-query pairs are left out: nothing is ever searched against a query.
      if (texts[i].kind === 'query' && texts[j].kind === 'query') continue;
      const c = dot(vectors[i], vectors[j]);
      if (!Number.isFinite(c)) continue;
      const kind = texts[i].kind === 'note' && texts[j].kind === 'note' ? 'note' : 'query';
      pairs[kind][texts[i].topic === texts[j].topic ? 'related' : 'unrelated'].push(c);
    }
  }
  return { model_id: modelId, query: scale(pairs.query), note: scale(pairs.note), set_hash: CALIBRATION_SET_HASH };
}

function scale({ related, unrelated }: { related: number[]; unrelated: number[] }): Scale {
  let floor = clamp(quantile(unrelated, FLOOR_QUANTILE), -1, 1 - MIN_SPAN);
  const ceiling = clamp(Math.max(quantile(related, CEILING_QUANTILE), floor + MIN_SPAN), -1, 1);
  if (ceiling - floor < MIN_SPAN) floor = ceiling - MIN_SPAN;
  const p90 = quantile(unrelated, 0.9);
  const p99 = quantile(unrelated, 0.99);
  const sigma = Math.max(1e-3, (p99 - p90) / (Z99 - Z90));
  return {
    floor: r4(floor),
    ceiling: r4(ceiling),
    auc: r4(auc(related, unrelated)),
    unrelated_median: r4(quantile(unrelated, 0.5)),
    related_median: r4(quantile(related, 0.5)),
    pairs: { related: related.length, unrelated: unrelated.length },
    tail_mu: r4(p90 - Z90 * sigma),
    tail_sigma: r4(sigma),
  };
}

const Z90 = 1.2816;
const Z99 = 2.3263;

/**
 * The similarity a semantic-only hit must exceed in a tenant of n notes: what the best of n
 * unrelated notes would exceed with probability `risk`, and at least the floor.
 */
export function abstentionFloor(scale: Scale, n: number, risk = ABSTAIN_RISK): number {
  if (!(scale.tail_sigma > 0) || !Number.isFinite(scale.tail_mu)) return scale.floor;
  const p = 1 - risk / Math.max(1, Number.isFinite(n) ? n : 1);
  return Math.max(scale.floor, scale.tail_mu + normalQuantile(p) * scale.tail_sigma);
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0)) return -Infinity;
  if (!(p < 1)) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** Embeds the calibration set with a model and calibrates it. */
export async function calibrateModel(embedder: { modelId: string; embed(texts: string[]): Promise<Float32Array[]> }): Promise<Calibration> {
  const texts = calibrationTexts();
  const vectors = await embedder.embed(texts.map((t) => t.text));
  return calibrateFromVectors(embedder.modelId, texts, vectors);
}

/** The semantic score at the ceiling: above it lies only what is closer than related notes typically are. */
export const CEILING_SCORE = 0.8;

/** Cosine → calibrated semantic relevance in [0, 1]: floor → 0, ceiling → 0.8, 1 → 1. Never NaN. */
export function semanticScore(cos: number, cal: Pick<Scale, 'floor' | 'ceiling'>): number {
  if (!Number.isFinite(cos)) return 0;
  const span = cal.ceiling - cal.floor;
  if (!(span > 0)) return cos >= cal.floor ? 1 : 0;
  if (cos <= cal.ceiling) return clamp((CEILING_SCORE * (cos - cal.floor)) / span, 0, 1);
  const top = 1 - cal.ceiling;
  return top > 0 ? clamp(CEILING_SCORE + ((1 - CEILING_SCORE) * (cos - cal.ceiling)) / top, 0, 1) : 1;
}

/**
 * Cosine → semantic evidence for hybrid fusion, in [0, 1]: linear from the floor (0) to
 * cosine 1 (1). Unlike semanticScore it does not flatten above the related ceiling: notes on
 * the query's own topic all lie there, and their order is what the semantic side adds to a
 * keyword match (the piecewise map lost 0.7% nDCG@10 on the Debian known-item set). Never NaN.
 */
export function semanticEvidence(cos: number, cal: Pick<Scale, 'floor'>): number {
  if (!Number.isFinite(cos) || !Number.isFinite(cal.floor)) return 0;
  const span = 1 - cal.floor;
  if (!(span > 0)) return cos >= cal.floor ? 1 : 0;
  return clamp((cos - cal.floor) / span, 0, 1);
}

/** Whether a cosine clears the model's floor (a hit drawn by meaning alone must). */
export function clearsFloor(cos: number, cal: Pick<Scale, 'floor'>): boolean {
  return Number.isFinite(cos) && cos > cal.floor;
}

/** Mann-Whitney AUC of related over unrelated scores. */
function auc(pos: number[], neg: number[]): number {
  if (!pos.length || !neg.length) return 0.5;
  const all = [...pos.map((v) => ({ v, p: 1 })), ...neg.map((v) => ({ v, p: 0 }))].sort((a, b) => a.v - b.v);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j].v === all[i].v) j++;
    const avg = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k].p) rankSum += avg;
    i = j;
  }
  return (rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
