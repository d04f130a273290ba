// A tenant's terms kept in memory for the SQLite keyword side. FTS5 spends ~1.5 µs a
// posting on bm25() (~0.45 µs just walking its doclists through the virtual table), so a
// query whose words each sit in 5,000–20,000 of a million notes costs ~50–100 ms however
// few results it shows. Kept here per term instead: the nodes holding it (ascending; 16-bit
// gaps when they fit) and its column-weighted frequency in each (FIELD_WEIGHTS are whole
// numbers, so an integer), with each node's length in tokens. Neither changes until the
// node is written, so unlike a kept score they survive other writes: the contribution is
// computed at query time from the tenant's current N, df and average length with FTS5's own
// operations (bm25() in fts5_aux.c), so it is FTS5's number. Pure functions.
import { BM25_B, BM25_K1 } from './keyword-score.js';

/** One term's postings: seqs ascending, as gaps (first from 0) when every gap fits 16 bits. */
export interface PackedPostings {
  length: number;
  /** The largest seq (0 when empty). */
  last: number;
  gaps: Uint16Array | null;
  seqs: Int32Array | null;
  /** Column-weighted frequency of the term in each node. */
  wtf: Uint8Array | Uint16Array | Float32Array;
}

/** Packs ascending seqs with their weighted frequencies. */
export function packPostings(seqs: ArrayLike<number>, wtf: ArrayLike<number>): PackedPostings {
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
  return { length: n, last: n ? seqs[n - 1] : 0, gaps, seqs: abs, wtf: w };
}

/** The seqs back, ascending (packPostings' inverse). */
export function unpackSeqs(p: PackedPostings): Int32Array {
  if (p.seqs) return p.seqs;
  const out = new Int32Array(p.length);
  let s = 0;
  for (let i = 0; i < p.length; i++) out[i] = s += p.gaps![i];
  return out;
}

export const packedBytes = (p: PackedPostings) => (p.gaps?.byteLength ?? 0) + (p.seqs?.byteLength ?? 0) + p.wtf.byteLength;

/**
 * Sums per-node scores over several sources (kept postings, FTS5 rows) into a dense array
 * indexed by seq, remembering which nodes it touched. One per repository, reused:
 * columns() hands the sums out, clear() resets what was touched.
 */
export class ScoreAccumulator {
  private acc = new Float64Array(0);
  private hit = new Uint8Array(0);
  private touched = new Int32Array(1024);
  private gathered = new Float64Array(0);
  private count = 0;

  private ensure(seq: number): void {
    if (seq < this.acc.length) return;
    const size = Math.max(seq + 1, Math.ceil(this.acc.length * 1.25), 1024);
    const acc = new Float64Array(size);
    acc.set(this.acc);
    const hit = new Uint8Array(size);
    hit.set(this.hit);
    this.acc = acc;
    this.hit = hit;
  }

  private mark(seq: number): void {
    this.hit[seq] = 1;
    if (this.count === this.touched.length) {
      const t = new Int32Array(this.count * 2);
      t.set(this.touched);
      this.touched = t;
    }
    this.touched[this.count++] = seq;
  }

  add(seq: number, score: number): void {
    this.ensure(seq);
    if (!this.hit[seq]) this.mark(seq);
    this.acc[seq] += score;
  }

  /** Whether a node has a sum (for the threshold walk over common terms). */
  has(seq: number): boolean {
    return seq < this.hit.length && this.hit[seq] === 1;
  }

  /** Adds to nodes already touched only (a common term's contribution to the candidates). */
  addToTouched(seqs: Int32Array, scores: Float64Array): void {
    const hit = this.hit;
    const acc = this.acc;
    const lim = hit.length;
    for (let i = 0; i < seqs.length; i++) {
      const s = seqs[i];
      if (s < lim && hit[s]) acc[s] += scores[i];
    }
  }

  /**
   * Adds a kept term's contribution in each of its nodes, skipping those marked in `skip`
   * (nodes written since the postings were read: FTS5 scores those). `docLen` and `skip`
   * are indexed by seq − base.
   */
  addPostings(p: PackedPostings, docLen: Uint32Array, base: number, idf: number, avgdl: number, skip: Uint8Array | null): void {
    this.ensure(p.last);
    const acc = this.acc;
    const hit = this.hit;
    const w = p.wtf;
    const k = BM25_K1 + 1.0;
    const kb = 1 - BM25_B;
    let seq = 0;
    for (let i = 0; i < p.length; i++) {
      seq = p.gaps ? seq + p.gaps[i] : p.seqs![i];
      if (skip?.[seq - base]) continue;
      const f = w[i];
      // FTS5's idf · f(k1+1) / (f + k1(1 − b + b·D/avgdl)), operation for operation
      const s = idf * ((f * k) / (f + BM25_K1 * (kb + (BM25_B * docLen[seq - base]) / avgdl)));
      if (!hit[seq]) this.mark(seq);
      acc[seq] += s;
    }
  }

  /** The touched nodes and their sums, in touch order: views, valid until the next add or clear(). */
  columns(): { seqs: Int32Array; scores: Float64Array } {
    if (this.gathered.length < this.count) this.gathered = new Float64Array(this.touched.length);
    const seqs = this.touched.subarray(0, this.count);
    const scores = this.gathered.subarray(0, this.count);
    for (let i = 0; i < this.count; i++) scores[i] = this.acc[seqs[i]];
    return { seqs, scores };
  }

  /** Forgets every sum (only the touched entries are reset). */
  clear(): void {
    for (let i = 0; i < this.count; i++) {
      const s = this.touched[i];
      this.acc[s] = 0;
      this.hit[s] = 0;
    }
    this.count = 0;
  }
}

