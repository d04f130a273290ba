// An in-memory k-NN index over one tenant's unit vectors: a sign-bit code per vector for a
// Hamming coarse pass over everything, then int8 scalar-quantised dot products to rerank
// the few hundred best candidates. sqlite-vec's vec0 scans 2 KB of float32 per node per
// query (~140 ms at 100k x 512 on this class of machine, ~530 ms for k = 1000); the bit
// pass reads 64 bytes per node (~4 ms) and the rerank ~0.5 MB. The float vectors stay in
// vec0, which remains the source of truth; `npm run bench` reports recall@10 against it.
// From PARTITION_MIN_SIZE vectors on, a coarse partition of the codes (code-partition.ts)
// narrows the Hamming pass to the lists nearest the query.
import { CodePartition, trainTwoLevel } from './code-partition.js';

/**
 * Candidates the Hamming pass keeps for int8 reranking: at least this many, at least
 * 1/RERANK_FRACTION of the index, at least k. Measured on real USE-lite vectors, keeping
 * 1.3% of them gave recall@10 0.97 against exact search (`npm run bench` reports it: semantic_recall).
 */
export const RERANK_CANDIDATES = 400;
export const RERANK_FRACTION = 64;
/** With the partition, 1/RERANK_PROBED_FRACTION of the scanned lists' codes are reranked. */
export const RERANK_PROBED_FRACTION = 8;
/**
 * Two-pass Hamming from this many vectors on: a 256-bit prefix pass keeps 1/PREFIX_KEEP.
 * On real USE-lite vectors a 256-bit prefix loses no recall, a 128-bit one does
 * (measured when the index was chosen; `npm run bench` checks recall at every size).
 */
export const PREFIX_MIN_SIZE = 20_000;
export const PREFIX_WORDS = 8;
export const PREFIX_KEEP = 8;
/**
 * The coarse partition (code-partition.ts): from this many vectors on, a query scans only
 * the codes of its nearest PROBE_FRACTION of the √size leaves (at least PROBE_MIN of them);
 * below, the flat scan is already fast. Re-trained in the background once the index
 * has doubled (or halved) since training.
 */
export const PARTITION_MIN_SIZE = 20_000;
export const PROBE_FRACTION = 1 / 32;
export const PROBE_MIN = 8;

/** V8's heap per entry of the seq → slot map (bench/lab/index-heap.ts: ~30 B). */
export const SLOT_MAP_BYTES = 32;

export interface ScoredSeq {
  seq: number;
  score: number; // approximate cosine similarity
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A partition being built: training, then filing every slot below `cursor`. */
interface PendingPartition {
  work: Generator<void, void>;
  partition: CodePartition | null;
  cursor: number;
  ms: number;
}

export class QuantizedIndex {
  /** False: search() ignores the partition (the flat scan, for comparisons in `npm run bench`). */
  usePartition = true;
  /** Share of the partition's leaves a query scans (at least PROBE_MIN). */
  probeFraction = PROBE_FRACTION;
  /** How long the last partition took to build, slices added up (ms). */
  partitionBuildMs = 0;
  private partition: CodePartition | null = null;
  private pending: PendingPartition | null = null;
  private readonly words: number;
  private cap = 0;
  private used = 0; // slots ever handed out
  private bits = new Uint32Array(0);
  private q8 = new Int8Array(0);
  private scale = new Float32Array(0);
  private seqOf = new Float64Array(0); // -1 = free slot
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];

  constructor(readonly dimension: number) {
    this.words = Math.ceil(dimension / 32);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(seq: number): boolean {
    return this.slotOf.has(seq);
  }

  /** Where the vector of `seq` is stored (a slot freed by remove() is handed out again). */
  slot(seq: number): number | undefined {
    return this.slotOf.get(seq);
  }

  upsert(seq: number, v: Float32Array): void {
    if (v.length !== this.dimension) throw new Error(`vector has ${v.length} dimensions, index ${this.dimension}`);
    let slot = this.slotOf.get(seq);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used++;
      if (slot >= this.cap) this.grow(Math.max(1024, this.cap * 2));
      this.slotOf.set(seq, slot);
      this.seqOf[slot] = seq;
    }
    const d = this.dimension;
    const bo = slot * this.words;
    this.bits.fill(0, bo, bo + this.words);
    let max = 0;
    for (let i = 0; i < d; i++) {
      if (v[i] > 0) this.bits[bo + (i >>> 5)] |= 1 << (i & 31);
      const a = Math.abs(v[i]);
      if (a > max) max = a;
    }
    const s = max > 0 ? max / 127 : 1;
    this.scale[slot] = s;
    const qo = slot * d;
    for (let i = 0; i < d; i++) this.q8[qo + i] = Math.round(v[i] / s);
    this.partition?.assign(slot, this.bits);
    if (this.pending?.partition && slot < this.pending.cursor) this.pending.partition.assign(slot, this.bits);
  }

  remove(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    this.slotOf.delete(seq);
    this.seqOf[slot] = -1;
    this.free.push(slot);
    this.partition?.remove(slot);
    this.pending?.partition?.remove(slot);
    if (this.partition && this.size < PARTITION_MIN_SIZE / 2) this.partition = null;
  }

  /** True when the partition should be (re)built: see PARTITION_MIN_SIZE. */
  partitionDue(): boolean {
    if (this.pending) return true;
    if (this.size < PARTITION_MIN_SIZE) return false;
    const p = this.partition;
    return !p || this.size >= 2 * p.trainedSize || this.size <= p.trainedSize / 2;
  }

  /** True once search() scans a partition rather than every code. */
  get partitioned(): boolean {
    return this.partition !== null;
  }

  /**
   * Builds the partition if one is due, for about `budgetMs` (Infinity: to the end); true
   * when none is due any more. Searches use the old partition (or the flat scan) until the
   * new one has every slot; writes meanwhile reach both.
   */
  buildPartition(budgetMs = Infinity): boolean {
    if (!this.partitionDue()) return true;
    this.pending ??= { work: this.partitionWork(), partition: null, cursor: 0, ms: 0 };
    let last = performance.now();
    const end = last + budgetMs;
    for (;;) {
      const done = this.pending.work.next().done;
      const now = performance.now();
      this.pending.ms += now - last;
      last = now;
      if (done) {
        this.partitionBuildMs = this.pending.ms;
        this.pending = null;
        return true;
      }
      if (now >= end) return false;
    }
  }

  private *partitionWork(): Generator<void, void> {
    const live = new Int32Array(this.size);
    let n = 0;
    for (let slot = 0; slot < this.used; slot++) if (this.seqOf[slot] >= 0) live[n++] = slot;
    const lists = Math.round(Math.sqrt(n)); // half as many lost 3% of recall@10 at 100k (synthetic bench vectors)
    const t = yield* trainTwoLevel(this.bits, this.words, live.subarray(0, n), lists, n);
    const pending = this.pending!;
    const p = (pending.partition = new CodePartition(this.words, t.groups, t.leaves, t.perGroup, this.cap, n));
    while (pending.cursor < this.used) {
      const slot = pending.cursor++;
      if (this.seqOf[slot] >= 0) p.assign(slot, this.bits);
      if ((slot & 2047) === 2047) yield;
    }
    this.partition = this.size >= PARTITION_MIN_SIZE / 2 ? p : null;
  }

  /** Bytes per stored vector: code, int8 vector, scale, seq, and the partition's share. */
  bytesPerVector(): number {
    const own = this.slotBytes();
    return this.size ? own + (this.partition ? this.partition.heldBytes() / this.size : 0) : own;
  }

  /**
   * The memory the index holds: every slot it has written (a removed vector's slot stays
   * until reused; capacity never written is untouched pages, not resident), the seq → slot
   * map on V8's heap, and the partition. What a memory budget must count.
   */
  heldBytes(): number {
    return this.used * this.slotBytes() + this.size * SLOT_MAP_BYTES + (this.partition?.heldBytes() ?? 0);
  }

  private slotBytes(): number {
    return this.words * 4 + this.dimension + 4 + 8;
  }

  /** The k nearest by cosine, best first (approximate: see RERANK_CANDIDATES). */
  search(query: Float32Array, k: number, rerank?: number): ScoredSeq[] {
    if (query.length !== this.dimension || k <= 0 || this.size === 0) return [];
    const qb = this.codeOf(query);
    let among: number[] | null = null;
    let n = this.size;
    if (this.partition && this.usePartition && k < n) {
      const lists = this.partition.count;
      among = this.partition.candidates(qb, Math.max(PROBE_MIN, Math.ceil(lists * this.probeFraction)), Math.max(k, rerank ?? RERANK_CANDIDATES) * 4);
      n = among.length;
    }
    const share = Math.ceil(n / (among ? RERANK_PROBED_FRACTION : RERANK_FRACTION));
    const want = Math.min(n, Math.max(k, rerank ?? Math.max(RERANK_CANDIDATES, share)));
    const candidates = want >= n ? (among ?? this.allSlots()) : this.hammingNearest(qb, among, want);
    const scores = this.dots(query, candidates);
    const seqOf = this.seqOf;
    const order = Array.from(candidates.keys()).sort((a, b) => scores[b] - scores[a] || seqOf[candidates[a]] - seqOf[candidates[b]]);
    return order.slice(0, k).map((c) => ({ seq: seqOf[candidates[c]], score: scores[c] }));
  }

  /**
   * The same approximate cosine as search() for these seqs (those not in the index are left
   * out): the similarity of a node another signal found, whatever its rank.
   */
  scoreOf(query: Float32Array, seqs: number[]): ScoredSeq[] {
    if (query.length !== this.dimension) return [];
    const present = seqs.filter((seq) => this.slotOf.has(seq));
    const scores = this.dots(query, present.map((seq) => this.slotOf.get(seq)!));
    return present.map((seq, i) => ({ seq, score: scores[i] }));
  }

  /** int8 dot products of the query with these slots. */
  private dots(query: Float32Array, slots: number[]): Float64Array {
    const d = this.dimension;
    const q8 = this.q8;
    const scale = this.scale;
    // The query too is quantised (to 11 bits, so a 512-d dot product stays an int32):
    // integer multiply-adds run several times faster than float x int8 in V8.
    let qmax = 0;
    for (let i = 0; i < d; i++) qmax = Math.max(qmax, Math.abs(query[i]));
    const qscale = qmax > 0 ? qmax / 2047 : 1;
    const qi = new Int16Array(d);
    for (let i = 0; i < d; i++) qi[i] = Math.round(query[i] / qscale);
    const scores = new Float64Array(slots.length);
    for (let c = 0; c < slots.length; c++) {
      const slot = slots[c];
      const qo = slot * d;
      let dot = 0;
      for (let i = 0; i < d; i++) dot = (dot + qi[i] * q8[qo + i]) | 0;
      scores[c] = dot * scale[slot] * qscale;
    }
    return scores;
  }

  /**
   * Slots of at least `want` vectors with the smallest Hamming distance to the query's sign
   * bits. Over large indexes a first pass on the first PREFIX_WORDS words of each code
   * keeps the best 1/PREFIX_KEEP, and only those get the full-length distance.
   */
  private hammingNearest(qb: Uint32Array, among: number[] | null, want: number): number[] {
    const w = this.words;
    const n = among ? among.length : this.size;
    let slots = among;
    const prefix = Math.min(PREFIX_WORDS, w);
    if (n >= PREFIX_MIN_SIZE && prefix < w) {
      slots = this.nearestSlots(qb, 0, prefix, slots, Math.max(want * 4, Math.ceil(n / PREFIX_KEEP)));
    }
    return this.nearestSlots(qb, 0, w, slots, want);
  }

  private codeOf(query: Float32Array): Uint32Array {
    const qb = new Uint32Array(this.words);
    for (let i = 0; i < this.dimension; i++) if (query[i] > 0) qb[i >>> 5] |= 1 << (i & 31);
    return qb;
  }

  /** Counting selection over the distance on words [from, to): the smallest cut that keeps `want`. */
  private nearestSlots(qb: Uint32Array, from: number, to: number, among: number[] | null, want: number): number[] {
    const w = this.words;
    const bits = this.bits;
    const seqOf = this.seqOf;
    const n = among ? among.length : this.used;
    const dist = new Uint16Array(n);
    const maxD = (to - from) * 32;
    const hist = new Uint32Array(maxD + 2);
    for (let i = 0; i < n; i++) {
      const slot = among ? among[i] : i;
      if (seqOf[slot] < 0) {
        dist[i] = maxD + 1;
        continue;
      }
      const o = slot * w;
      let h = 0;
      for (let j = from; j < to; j++) h += popcount32(bits[o + j] ^ qb[j]);
      dist[i] = h;
      hist[h]++;
    }
    let cut = 0;
    for (let acc = 0; cut <= maxD && acc + hist[cut] < want; cut++) acc += hist[cut];
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (dist[i] <= cut) out.push(among ? among[i] : i);
    return out;
  }

  private allSlots(): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < this.used; slot++) if (this.seqOf[slot] >= 0) out.push(slot);
    return out;
  }

  private grow(cap: number): void {
    const bits = new Uint32Array(cap * this.words);
    bits.set(this.bits);
    const q8 = new Int8Array(cap * this.dimension);
    q8.set(this.q8);
    const scale = new Float32Array(cap);
    scale.set(this.scale);
    const seqOf = new Float64Array(cap).fill(-1);
    seqOf.set(this.seqOf);
    this.bits = bits;
    this.q8 = q8;
    this.scale = scale;
    this.seqOf = seqOf;
    this.cap = cap;
    this.partition?.grow(cap);
    this.pending?.partition?.grow(cap);
  }
}
