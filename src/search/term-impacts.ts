// Exact top-k BM25 without scoring every match of a common word. FTS5's bm25() is a sum
// over the query's phrases of one independent contribution each (idf, the phrase's
// column-weighted count in the node, the node's length): so a node's score for
// "rare1 OR rare2 OR common" is its score for "rare1 OR rare2" plus its score for
// "common" alone. The contributions of a common term are read once (one FTS5 query over
// its postings) and kept, per tenant, until the tenant's next write (TermImpacts); a query
// then scores FTS5's matches of its rare terms, adds the common terms' kept
// contributions, and finds the best nodes that contain only common terms with Fagin's
// threshold algorithm over the kept lists, best first: it stops as soon as the sum of the
// lists' next scores cannot reach the k-th best. The result is FTS5's own ranking (up to
// the last bit of a floating-point sum). Pure functions.

/** One term's BM25 contribution in every node that contains it. */
export interface TermImpacts {
  /** Node seqs, ascending. */
  seqs: Int32Array;
  /** Contribution (-bm25 of the term alone) per entry of seqs. */
  scores: Float64Array;
  /** Indexes into seqs/scores, best score first. */
  order: Int32Array;
}

export function termImpacts(rows: { seq: number; score: number }[]): TermImpacts {
  rows.sort((a, b) => a.seq - b.seq);
  return termImpactsOf(Int32Array.from(rows, (r) => r.seq), Float64Array.from(rows, (r) => r.score));
}

/** The same from columns already in seq order. */
export function termImpactsOf(seqs: Int32Array, scores: Float64Array): TermImpacts {
  const order = Int32Array.from(seqs.keys()).sort((a, b) => scores[b] - scores[a] || seqs[a] - seqs[b]);
  return { seqs, scores, order };
}

/** Bytes a TermImpacts holds (the cache's budget counts these). */
export const impactBytes = (t: TermImpacts) => t.seqs.byteLength + t.scores.byteLength + t.order.byteLength;

/** The term's contribution in this node, 0 when the node does not contain it. */
export function impactOf(t: TermImpacts, seq: number): number {
  let lo = 0;
  let hi = t.seqs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = t.seqs[mid];
    if (v === seq) return t.scores[mid];
    if (v < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

export interface ScoredSeq {
  seq: number;
  score: number;
}

/**
 * The k best nodes, best first, for a query whose rare terms FTS5 scored (`rare`: every
 * node matching any of them, with their summed contribution) and whose common terms have
 * kept impacts. Also returns how many distinct nodes match any term (total_matches).
 */
export function topKWithImpacts(rare: ScoredSeq[], common: TermImpacts[], k: number): { hits: ScoredSeq[]; total: number } {
  const seqs = Int32Array.from(rare, (r) => r.seq);
  const scores = Float64Array.from(rare, (r) => {
    let s = r.score;
    for (const c of common) s += impactOf(c, r.seq);
    return s;
  });
  const inRare = new Set(seqs);
  return { hits: topKOfCandidates(seqs, scores, (seq) => inRare.has(seq), common, k), total: unionSize(seqs, common) };
}

/**
 * The k best nodes, best first, when the candidates (`seqs`/`scores`) are already scored in
 * full, common terms included, and `isCandidate` tells them apart. The candidates go
 * through a bounded heap (no sort of tens of thousands of matches); then the threshold
 * algorithm walks the common terms' lists best first for the nodes outside them: a node not
 * seen yet scores at most the sum of every list's next score.
 */
export function topKOfCandidates(seqs: Int32Array, scores: Float64Array, isCandidate: (seq: number) => boolean, common: TermImpacts[], k: number): ScoredSeq[] {
  const heap = new MinHeap(k);
  for (let i = 0; i < seqs.length; i++) {
    // Most of a million candidates lose to the k-th best: skip them without an object.
    if (heap.admits(seqs[i], scores[i])) heap.offer({ seq: seqs[i], score: scores[i] });
  }
  const visited = new Set<number>();
  const pos = common.map(() => 0);
  for (;;) {
    let bound = 0;
    let open = false;
    for (let i = 0; i < common.length; i++) {
      const c = common[i];
      if (pos[i] < c.order.length) {
        open = true;
        bound += c.scores[c.order[pos[i]]];
      }
    }
    if (!open || (heap.size === k && bound < heap.min())) break;
    for (let i = 0; i < common.length; i++) {
      const c = common[i];
      if (pos[i] >= c.order.length) continue;
      const seq = c.seqs[c.order[pos[i]++]];
      if (visited.has(seq) || isCandidate(seq)) continue;
      visited.add(seq);
      let score = 0;
      for (const l of common) score += impactOf(l, seq);
      heap.offer({ seq, score });
    }
  }
  return heap.sorted();
}

/** Distinct nodes among the candidates and the common terms' lists (total_matches; a bitmap over seqs). */
export function unionSize(candidates: ArrayLike<number>, common: TermImpacts[]): number {
  if (common.length === 0) return candidates.length;
  if (common.length === 1 && candidates.length === 0) return common[0].seqs.length;
  let max = 0;
  for (const c of common) if (c.seqs.length) max = Math.max(max, c.seqs[c.seqs.length - 1]);
  for (let i = 0; i < candidates.length; i++) max = Math.max(max, candidates[i]);
  const bits = new Uint8Array((max >> 3) + 1);
  let total = 0;
  const mark = (seq: number) => {
    const b = 1 << (seq & 7);
    if (!(bits[seq >> 3] & b)) {
      bits[seq >> 3] |= b;
      total++;
    }
  };
  for (const c of common) for (const seq of c.seqs) mark(seq);
  for (let i = 0; i < candidates.length; i++) mark(candidates[i]);
  return total;
}

function byScore(a: ScoredSeq, b: ScoredSeq): number {
  return b.score - a.score || a.seq - b.seq;
}

/** Keeps the k best offers; the root is the worst kept (ties: the larger seq is worse). */
class MinHeap {
  private readonly a: ScoredSeq[] = [];
  constructor(private readonly k: number) {}
  get size(): number {
    return this.a.length;
  }
  min(): number {
    return this.a[0].score;
  }
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
    if (!this.admits(x.seq, x.score)) return;
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
