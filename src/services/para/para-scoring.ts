// The decision rule of automatic PARA classification, as pure functions so the job, the
// tests and the eval harness share one definition.
import { centroid, dot, normalize } from '../../vectors/math.js';

export interface ClassifierSettings {
  /** Minimum cosine similarity between a node and the item's profile. */
  threshold: number;
  /** How far the best item must beat the runner-up (a wrong folder costs more than none). */
  margin: number;
  /** Nodes at which the centroid weighs as much as the label text (w = n / (n + k)). */
  centroidHalfWeight: number;
  /** Upper bound of the centroid's weight, so the label keeps steering the item. */
  maxCentroidWeight: number;
}

export const DEFAULT_CLASSIFIER: ClassifierSettings = {
  threshold: 0.35,
  margin: 0.05,
  centroidHalfWeight: 4,
  maxCentroidWeight: 0.7,
};

export interface ItemProfile {
  itemId: string;
  vector: Float32Array;
  method: string;
}

/** The item's text vector, blended with the centroid of its nodes once it has some. */
export function buildProfile(itemId: string, textVector: Float32Array, nodeVectors: Float32Array[], cfg: ClassifierSettings): ItemProfile {
  const usable = nodeVectors.filter((v) => v.length === textVector.length);
  const centre = centroid(usable);
  if (!centre) return { itemId, vector: textVector, method: 'cosine:label' };
  const w = Math.min(cfg.maxCentroidWeight, usable.length / (usable.length + cfg.centroidHalfWeight));
  const blended = new Float32Array(textVector.length);
  for (let i = 0; i < blended.length; i++) blended[i] = (1 - w) * textVector[i] + w * centre[i];
  return { itemId, vector: normalize(blended), method: `cosine:label+centroid(${usable.length})` };
}

export interface Decision {
  itemId: string;
  score: number;
  runnerUp: number | null;
  method: string;
}

/** The item a node belongs to, or null when no item is both close enough and clearly the best. */
export function decide(nodeVector: Float32Array, profiles: ItemProfile[], cfg: ClassifierSettings): Decision | null {
  let best: ItemProfile | null = null;
  let bestScore = -Infinity;
  let second = -Infinity;
  for (const p of profiles) {
    if (p.vector.length !== nodeVector.length) continue;
    const s = dot(nodeVector, p.vector);
    if (s > bestScore) {
      second = bestScore;
      bestScore = s;
      best = p;
    } else if (s > second) second = s;
  }
  if (!best || bestScore < cfg.threshold) return null;
  if (second !== -Infinity && bestScore - second < cfg.margin) return null;
  return { itemId: best.itemId, score: bestScore, runnerUp: second === -Infinity ? null : second, method: best.method };
}

/** The text embedded for an item: its label, then its description. */
export function itemText(item: { label: string; description: string }): string {
  return item.description ? `${item.label}. ${item.description}` : item.label;
}
