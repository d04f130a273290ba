// One term's postings as the keyword cache keeps them: the nodes holding it (seqs
// ascending; 16-bit gaps when every gap fits) and the term's column-weighted frequency in
// each (FIELD_WEIGHTS are whole numbers, so usually a byte). Neither changes until a node
// holding the term is written, so they outlive every other write. Pure functions.

export interface Postings {
  length: number;
  /** The largest seq (0 when empty). */
  last: number;
  gaps: Uint16Array | null;
  seqs: Int32Array | null;
  /** Column-weighted frequency of the term in each node. */
  wtf: Uint8Array | Uint16Array | Float32Array;
  /** The largest wtf (bounds the term's contribution: top-k.ts). */
  maxWtf: number;
}

/** Packs ascending seqs with their weighted frequencies. */
export function packPostings(seqs: ArrayLike<number>, wtf: ArrayLike<number>): Postings {
  const n = seqs.length;
  let gapsFit = true;
  let maxW = 0;
  let whole = true;
  for (let i = 0; i < n; i++) {
    if (seqs[i] - (i ? seqs[i - 1] : 0) > 0xffff) gapsFit = false;
    if (wtf[i] > maxW) maxW = wtf[i];
    if (!Number.isInteger(wtf[i])) whole = false;
  }
  let gaps: Uint16Array | null = null;
  let abs: Int32Array | null = null;
  if (gapsFit) {
    gaps = new Uint16Array(n);
    for (let i = 0; i < n; i++) gaps[i] = seqs[i] - (i ? seqs[i - 1] : 0);
  } else abs = Int32Array.from(seqs);
  const w = !whole ? Float32Array.from(wtf) : maxW <= 0xff ? Uint8Array.from(wtf) : maxW <= 0xffff ? Uint16Array.from(wtf) : Float32Array.from(wtf);
  return { length: n, last: n ? seqs[n - 1] : 0, gaps, seqs: abs, wtf: w, maxWtf: maxW };
}

/** The seqs back, ascending (packPostings' inverse). */
export function unpackSeqs(p: Postings): Int32Array {
  if (p.seqs) return p.seqs;
  const out = new Int32Array(p.length);
  let s = 0;
  for (let i = 0; i < p.length; i++) out[i] = s += p.gaps![i];
  return out;
}

export const postingsBytes = (p: Postings) => (p.gaps?.byteLength ?? 0) + (p.seqs?.byteLength ?? 0) + p.wtf.byteLength + 48;
