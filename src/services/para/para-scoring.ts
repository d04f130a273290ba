// The decision rule of automatic PARA classification, as pure functions so the job, the
// tests and the eval harness share one definition. Scores are calibrated per model (see
// search/calibration.ts): 0 = what a text on an unrelated topic typically reaches (the
// median of unrelated pairs), 1 = what a text on the same topic reaches (the related
// ceiling). An item profile made of the label alone is read on the model's query-to-note
// scale; one blended with the centroid of the item's notes moves toward the note-to-note
// scale by the centroid's weight. A node is filed only when its score reaches the
// threshold, whether one item is active or many, and beats the runner-up (if any) by the
// margin. (Search's floor, the 99th percentile of unrelated pairs, would leave most notes
// unfiled: measured coverage 0.48 at precision 1.0.)
import type { Calibration, Scale } from '../../search/calibration.js';
import { centroid, dot, normalize } from '../../vectors/math.js';

export interface ClassifierSettings {
  /** Minimum calibrated score (0 = a typical unrelated text, 1 = the model's related-topic ceiling). */
  threshold: number;
  /** How far (in calibrated score) the best item must beat the runner-up (a wrong folder costs more than none). */
  margin: number;
  /** Nodes at which the centroid weighs as much as the label text (w = n / (n + k)). */
  centroidHalfWeight: number;
  /** Upper bound of the centroid's weight, so the label keeps steering the item. */
  maxCentroidWeight: number;
}

export const DEFAULT_CLASSIFIER: ClassifierSettings = {
  threshold: 0.5,
  margin: 0.1,
  centroidHalfWeight: 4,
  maxCentroidWeight: 0.7,
};

export interface ItemProfile {
  itemId: string;
  vector: Float32Array;
  method: string;
  /** Weight of the notes' centroid in the vector (0 = label only). */
  centroidWeight?: number;
}

/** The item's text vector, blended with the centroid of its nodes once it has some. */
export function buildProfile(itemId: string, textVector: Float32Array, nodeVectors: Float32Array[], cfg: ClassifierSettings): ItemProfile {
  const usable = nodeVectors.filter((v) => v.length === textVector.length);
  const centre = centroid(usable);
  if (!centre) return { itemId, vector: textVector, method: 'cosine:label', centroidWeight: 0 };
  const w = Math.min(cfg.maxCentroidWeight, usable.length / (usable.length + cfg.centroidHalfWeight));
  const blended = new Float32Array(textVector.length);
  for (let i = 0; i < blended.length; i++) blended[i] = (1 - w) * textVector[i] + w * centre[i];
  return { itemId, vector: normalize(blended), method: `cosine:label+centroid(${usable.length})`, centroidWeight: w };
}

export interface Decision {
  itemId: string;
  score: number;
  runnerUp: number | null;
  method: string;
}

/** The scale a profile's cosine is read on: from query-to-note (label) toward note-to-note (centroid). */
export function profileScale(p: ItemProfile, cal: Calibration): Scale {
  const w = p.centroidWeight ?? 0;
  const mix = (a: number, b: number) => (1 - w) * a + w * b;
  return { ...cal.query, floor: mix(cal.query.unrelated_median, cal.note.unrelated_median), ceiling: mix(cal.query.ceiling, cal.note.ceiling) };
}

/**
 * Cosine → PARA score on a profile's scale (floor here = the unrelated median), not clamped:
 * decisions compare these (two items both above the ceiling still differ); the stored score
 * is clamped to [0, 1]. Never NaN.
 */
export function paraScore(cos: number, scale: Scale): number {
  const span = scale.ceiling - scale.floor;
  if (!Number.isFinite(cos) || !(span > 0)) return 0;
  return (cos - scale.floor) / span;
}

/**
 * The item a node belongs to, or null when no item is both close enough (calibrated score
 * at least the threshold, even with a single item) and clearly the best.
 */
export function decide(nodeVector: Float32Array, profiles: ItemProfile[], cfg: ClassifierSettings, cal: Calibration | null): Decision | null {
  if (!cal) return null;
  let best: ItemProfile | null = null;
  let bestScore = -Infinity;
  let second = -Infinity;
  for (const p of profiles) {
    if (p.vector.length !== nodeVector.length) continue;
    const scale = profileScale(p, cal);
    const cos = dot(nodeVector, p.vector);
    const s = paraScore(cos, scale);
    if (s > bestScore) {
      second = bestScore;
      bestScore = s;
      best = p;
    } else if (s > second) second = s;
  }
  if (!best || !(bestScore > 0) || Math.min(1, bestScore) < cfg.threshold) return null;
  if (second !== -Infinity && bestScore - second < cfg.margin) return null;
  return { itemId: best.itemId, score: clamp(bestScore), runnerUp: second === -Infinity ? null : clamp(second), method: best.method };
}

const clamp = (x: number) => Math.min(1, Math.max(0, x));

/** The text embedded for an item: its label, then its description. */
export function itemText(item: { label: string; description: string }): string {
  return item.description ? `${item.label}. ${item.description}` : item.label;
}
