// The exact top-k BM25 walk over kept postings. Phrases are taken in the query's order and
// each node's contributions summed in that order, as FTS5's bm25() sums them: a node's score
// is FTS5's own to the last bit. MaxScore's cut, term at a time: once the phrases still to
// come cannot lift a node that matched none of the earlier ones past the k-th best partial
// sum (partial sums only grow, so that k-th is a lower bound of the final one), those
// phrases only add to the nodes already met (a node met only by them cannot reach the
// page). Ties: the smaller seq first. Also counts every node matching any phrase
// (total_matches). Pure; one Walk per ranker, its buffers reused.
import { contribution, upperBound } from './bm25.js';
import type { DocLengths } from './lengths.js';
import type { TermView } from './tenant-postings.js';

export interface ScoredSeq {
  seq: number;
  score: number;
}

/** One query phrase: its view and its idf. */
export interface WalkPhrase {
  view: TermView;
  idf: number;
}

/** The nodes a filtered query may return: seq s when bits[s - base] (absent: every node). */
export interface SeqSet {
  bits: Uint8Array;
  base: number;
}

/** A SeqSet of these seqs. */
export function seqSet(seqs: readonly number[]): SeqSet {
  let lo = Number.MAX_SAFE_INTEGER;
  let hi = -1;
  for (const s of seqs) {
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  const bits = new Uint8Array(hi < 0 ? 0 : hi - lo + 1);
  for (const s of seqs) bits[s - lo] = 1;
  return { bits, base: hi < 0 ? 0 : lo };
}

export class Walk {
  private acc = new Float64Array(0);
  /** 1: scored (met by a phrase while open); 2: matched only (counted for the total). */
  private mark = new Uint8Array(0);
  private touched = new Int32Array(1024);
  private count = 0;
  private others: number[] = [];
  private sums = new Float64Array(0);
  /** Phrases taken only into nodes already met, in the last walk (tests, the bench). */
  cutPhrases = 0;

  private ensure(seq: number): void {
    if (seq < this.acc.length) return;
    const size = Math.max(seq + 1, Math.ceil(this.acc.length * 1.25), 1024);
    const acc = new Float64Array(size);
    acc.set(this.acc);
    const mark = new Uint8Array(size);
    mark.set(this.mark);
    this.acc = acc;
    this.mark = mark;
  }

  private touch(seq: number): void {
    this.mark[seq] = 1;
    if (this.count === this.touched.length) {
      const t = new Int32Array(this.count * 2);
      t.set(this.touched);
      this.touched = t;
    }
    this.touched[this.count++] = seq;
  }

  /** The k best nodes for these phrases (in query order), best first, and how many nodes match any (of `only`, when given). */
  top(phrases: WalkPhrase[], lengths: DocLengths, avgdl: number, k: number, only: SeqSet | null = null): { hits: ScoredSeq[]; total: number } {
    try {
      const ub = phrases.map((ph) => upperBound(ph.idf, ph.view.maxWtf, avgdl));
      let rest = ub.reduce((a, b) => a + b, 0);
      let restPostings = phrases.reduce((a, ph) => a + ph.view.df, 0);
      let open = true;
      this.cutPhrases = 0;
      let total = 0;
      for (let i = 0; i < phrases.length; i++) {
        rest -= ub[i];
        restPostings -= phrases[i].view.df;
        total += this.add(phrases[i], lengths, avgdl, open, only);
        if (!open) this.cutPhrases++;
        // Checked while open, when the postings still to come outnumber the sums the check
        // reads: the k-th best partial sum against what the rest could add.
        if (open && restPostings > this.count && this.count >= k && k > 0 && rest * (1 + 1e-9) < this.kth(k)) open = false;
      }
      return { hits: this.best(k), total };
    } finally {
      this.clear();
    }
  }

  /** Adds a phrase's contributions (open: to every node holding it; else to the nodes met); returns how many nodes it newly matched. */
  private add(ph: WalkPhrase, lengths: DocLengths, avgdl: number, open: boolean, only: SeqSet | null): number {
    const v = ph.view;
    const p = v.p;
    const ex = v.extraSeqs;
    this.ensure(Math.max(p.last, ex.length ? ex[ex.length - 1] : 0));
    // Locals only (no closure over them): the loop below is the query's hot path.
    const acc = this.acc;
    const mark = this.mark;
    const lens = lengths.lens;
    const lb = lengths.base;
    const w = p.wtf;
    const gaps = p.gaps;
    const abs = p.seqs;
    const skip = v.skip;
    const sb = v.skipBase;
    const sl = skip ? skip.length : 0;
    const idf = ph.idf;
    const ob = only ? only.bits : null;
    const obase = only ? only.base : 0;
    const ol = ob ? ob.length : 0;
    let fresh = 0;
    // Kept postings and the changed nodes holding the term, merged in seq order (each node once).
    let e = 0;
    let seq = 0;
    for (let i = 0; i < p.length; i++) {
      seq = gaps ? seq + gaps[i] : abs![i];
      if (skip) {
        const j = seq - sb;
        if (j >= 0 && j < sl && skip[j]) continue;
      }
      if (ob) {
        const j = seq - obase;
        if (j < 0 || j >= ol || !ob[j]) continue;
      }
      while (e < ex.length && ex[e] < seq) {
        if (!ob || ob[ex[e] - obase]) fresh += this.meet(ex[e], v.extraWtf[e], idf, lens, lb, avgdl, open);
        e++;
      }
      if (mark[seq] === 1) acc[seq] += contribution(idf, w[i], lens[seq - lb], avgdl);
      else fresh += this.meet(seq, w[i], idf, lens, lb, avgdl, open);
    }
    for (; e < ex.length; e++) if (!ob || ob[ex[e] - obase]) fresh += this.meet(ex[e], v.extraWtf[e], idf, lens, lb, avgdl, open);
    return fresh;
  }

  /** A posting of a node not scored yet, or of a scored one from the changed nodes: 1 when the node is newly matched. */
  private meet(s: number, f: number, idf: number, lens: Uint32Array, lb: number, avgdl: number, open: boolean): number {
    const m = this.mark[s];
    if (m === 1) {
      this.acc[s] += contribution(idf, f, lens[s - lb], avgdl);
      return 0;
    }
    if (open) {
      // (2 cannot meet an open walk: a walk never opens again once cut)
      this.touch(s);
      this.acc[s] += contribution(idf, f, lens[s - lb], avgdl);
      return 1;
    }
    if (m === 2) return 0;
    this.mark[s] = 2;
    this.others.push(s);
    return 1;
  }

  /** The k-th largest sum so far (k ≤ count), by quickselect over a reused buffer. */
  private kth(k: number): number {
    if (this.sums.length < this.count) this.sums = new Float64Array(this.touched.length);
    const a = this.sums;
    const n = this.count;
    for (let i = 0; i < n; i++) a[i] = this.acc[this.touched[i]];
    // The element of rank n − k in ascending order.
    const want = n - k;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const pivot = a[(lo + hi) >> 1];
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
          const t = a[i];
          a[i++] = a[j];
          a[j--] = t;
        }
      }
      if (want <= j) hi = j;
      else if (want >= i) lo = i;
      else return a[want];
    }
    return a[want];
  }

  private best(k: number): ScoredSeq[] {
    const heap = new MinHeap(k);
    for (let i = 0; i < this.count; i++) {
      const s = this.touched[i];
      if (heap.admits(s, this.acc[s])) heap.offer({ seq: s, score: this.acc[s] });
    }
    return heap.sorted();
  }

  private clear(): void {
    for (let i = 0; i < this.count; i++) {
      const s = this.touched[i];
      this.acc[s] = 0;
      this.mark[s] = 0;
    }
    for (const s of this.others) this.mark[s] = 0;
    this.others = [];
    this.count = 0;
  }
}

function byScore(a: ScoredSeq, b: ScoredSeq): number {
  return b.score - a.score || a.seq - b.seq;
}

/** Keeps the k best offers; the root is the worst kept (ties: the larger seq is worse). */
class MinHeap {
  private readonly a: ScoredSeq[] = [];
  constructor(private readonly k: number) {}
  /** Whether an offer of this node would be kept (checked before making one). */
  admits(seq: number, score: number): boolean {
    if (this.a.length < this.k) return true;
    const m = this.a[0];
    return this.k > 0 && (score > m.score || (score === m.score && seq < m.seq));
  }
  private worse(x: ScoredSeq, y: ScoredSeq): boolean {
    return x.score < y.score || (x.score === y.score && x.seq > y.seq);
  }
  offer(x: ScoredSeq): void {
    const a = this.a;
    if (a.length < this.k) {
      a.push(x);
      let i = a.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(a[i], a[p])) break;
        [a[i], a[p]] = [a[p], a[i]];
        i = p;
      }
      return;
    }
    a[0] = x;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.worse(a[l], a[m])) m = l;
      if (r < a.length && this.worse(a[r], a[m])) m = r;
      if (m === i) break;
      [a[i], a[m]] = [a[m], a[i]];
      i = m;
    }
  }
  sorted(): ScoredSeq[] {
    return [...this.a].sort(byScore);
  }
}
