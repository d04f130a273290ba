// The semantic side's gate, measured per tenant: does a query's best match by meaning stand
// out from what an unrelated query reaches in THIS tenant's notes?
//
// The shipped calibration (calibration.ts) reads a model's cosines on 120 texts of average
// length; its best-of-N gate assumes a tenant's notes are independent draws. Short texts
// break that: the turns of a conversation sit close to each other and to any everyday
// question, so in the lab's conversation tenants (~500 turns) the gate sat at cosine ≈ 0.5,
// the median best match of an in-domain question, and the semantic mode said nothing for
// 86% of them (`npm run eval -- --memory`).
//
// So each tenant is probed: the calibration set's queries (everyday questions on 20 topics)
// are asked of its notes, and the best cosine each reaches is what "unrelated" looks like
// here, at these text lengths. A query speaks by meaning when its own best match beats
// SPEAK_QUANTILE of those probes (and the model's floor); then it lists its nearest notes down
// to what a typical probe reaches. Questions of another domain rarely beat the probes'
// upper range; a question about what the tenant holds usually does. Pure functions.
import { quantile, type Scale } from './calibration.js';

/**
 * The probes' best cosines a query's own best must beat. On the lab's conversations: 0.9
 * left the semantic mode at 0.62× the model's plain cosine (recall@10), 0.75 at 0.86×, 0.6
 * at 0.90× with 96% of another collection's queries still answered with nothing by meaning.
 */
export const SPEAK_QUANTILE = 0.6;
/** Once a query speaks, notes down to what a typical unrelated question's best reaches are listed. */
export const LIST_QUANTILE = 0.5;
/** Below this many notes the probes say little: the calibrated best-of-N gate stands. */
export const MIN_PROBED_NOTES = 30;
/**
 * Notes this short (median characters: a line or two) take the probes' gate; from this long
 * (a paragraph) on, the best-of-N gate; in between, a mix. The best-of-N gate keeps the
 * out-of-domain abstention of tenants of abstracts (CISI, 775 characters), package
 * descriptions (390) and docstrings (350), all past the upper bound (a mix reaching them cost
 * up to half of it); short texts (the lab's chat turns, 53 characters; one-line memories) are
 * where it silenced in-domain questions.
 */
export const SHORT_NOTE_CHARS = 150;
export const LONG_NOTE_CHARS = 300;
/**
 * The semantic MODE (asked for by name: "what do my notes say about this, by meaning") lists
 * by meaning once a query's best match beats this quantile of the probes: closer than nine
 * in ten unrelated everyday questions come in this tenant. The gate above stays for a hit
 * drawn by meaning alone into hybrid results, context, answers and suggestions, where it
 * would push the keyword hits down; there the best-of-N line keeps long-note tenants' other
 * collections' queries out. On long notes that line (cosine ≈ 0.59) left the semantic mode
 * empty for 14% of the Python docs' own queries (0.82× the model's plain cosine); from the
 * probes' 90th percentile (≈ 0.48) CISI / Debian / Python docs reach 1.01× / 0.97× / 0.93×
 * (bench/lab/collection-gate-lab.ts, the gates compared on one run's sides). Short-note
 * tenants keep their lower line (the minimum of the two).
 */
export const MODE_SPEAK_QUANTILE = 0.9;

export interface TenantGate {
  /** A query's best cosine must exceed this for any hit drawn by meaning alone. */
  speak: number;
  /** Once it speaks, hits whose cosine exceeds this are listed. */
  list: number;
  /** The semantic mode's line (MODE_SPEAK_QUANTILE): its best must exceed it, and it lists down to it (or `list`, when lower). */
  mode: number;
}

/**
 * The gate from the probes' best cosines in a tenant, its median note length and the
 * best-of-N gate (calibration.ts abstentionFloor); never under the model's floor.
 */
export function tenantGate(probeBest: number[], scale: Pick<Scale, 'floor'>, medianChars: number, bestOfN: number): TenantGate {
  const probed = Math.max(scale.floor, quantile(probeBest, SPEAK_QUANTILE));
  const w = Math.min(1, Math.max(0, (medianChars - SHORT_NOTE_CHARS) / (LONG_NOTE_CHARS - SHORT_NOTE_CHARS)));
  const speak = (1 - w) * probed + w * Math.max(probed, bestOfN);
  const list = w >= 1 ? speak : Math.min(speak, quantile(probeBest, LIST_QUANTILE));
  return { speak, list, mode: Math.min(speak, Math.max(scale.floor, quantile(probeBest, MODE_SPEAK_QUANTILE))) };
}

/**
 * The cosine a hit must exceed for a query whose best match is `best`: Infinity unless the
 * best speaks. `mode` 'semantic' (the semantic mode) speaks from the gate's mode line; any
 * other use (a hit drawn by meaning alone beside keyword hits) from `speak`.
 */
export function gateLine(best: number, gate: TenantGate, mode: 'semantic' | 'hybrid'): number {
  if (mode === 'semantic') return best > gate.mode ? Math.min(gate.list, gate.mode) : Infinity;
  return best > gate.speak ? gate.list : Infinity;
}
