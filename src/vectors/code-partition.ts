// A coarse partition (IVF) of a QuantizedIndex's sign codes: binary centroids trained by
// k-majority (Lloyd's iterations in Hamming space, on a sample), two levels deep so that
// assigning a million codes costs ~2·√lists distances each instead of `lists`, and one
// inverted list of slots per leaf. A query scans only the lists of its nearest leaves.
// The partition only chooses candidates: scores still come from the index's int8 rerank.

/**
 * Groups whose leaves a code is compared with when it is filed. On the bench's synthetic
 * vectors at 100k, the true top 10 were in the scanned lists for 96.1% (1 group), 98.7%
 * (2), 99.5% (3) and 99.8% (4) of hits; filing a million codes took ~4.5 s with 3.
 */
export const GROUP_PROBES = 3;
/**
 * ... but only the groups at most this many bits further than the nearest: a code deep
 * inside a group has its nearest leaf there. Filing a million codes took 2.8 s instead of
 * 4.5 s, with the same share of true neighbours in the scanned lists (16 bits of 512; 8 lost
 * 0.6% of them at 100k).
 */
export const GROUP_MARGIN = 16;

/** Hamming distance between the code at `a[ao..]` and the code at `b[bo..]`, `words` words each. */
export function hamming(a: Uint32Array, ao: number, b: Uint32Array, bo: number, words: number): number {
  let h = 0;
  for (let j = 0; j < words; j++) {
    let x = a[ao + j] ^ b[bo + j];
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    h += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
  }
  return h;
}

/** A small seeded generator (mulberry32): the same vectors give the same partition. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The index of the code in `centroids` (`count` codes) nearest to the code at `bits[o..]`. */
function nearestCentroid(bits: Uint32Array, o: number, centroids: Uint32Array, from: number, count: number, words: number): number {
  let best = from;
  let bestD = Infinity;
  for (let c = from; c < from + count; c++) {
    const d = hamming(bits, o, centroids, c * words, words);
    if (d < bestD) (bestD = d), (best = c);
  }
  return best;
}

/**
 * `k` binary centroids of the codes at these slots: k-majority from k distinct members,
 * `iterations` rounds of assign-then-majority-vote; an emptied centroid takes a random
 * member's code. Yields between rounds' chunks so a caller can spread the work.
 */
export function* trainCentroids(bits: Uint32Array, words: number, slots: Int32Array, k: number, iterations: number, seed: number): Generator<void, Uint32Array> {
  const rand = random(seed);
  const n = slots.length;
  const cents = new Uint32Array(k * words);
  for (let c = 0; c < k; c++) {
    const s = slots[Math.min(n - 1, Math.floor(((c + rand()) * n) / k))] * words; // one from each k-th of the sample
    cents.set(bits.subarray(s, s + words), c * words);
  }
  const dim = words * 32;
  const ones = new Uint32Array(k * dim);
  const members = new Uint32Array(k);
  for (let it = 0; it < iterations; it++) {
    ones.fill(0);
    members.fill(0);
    for (let i = 0; i < n; i++) {
      const o = slots[i] * words;
      const c = nearestCentroid(bits, o, cents, 0, k, words);
      members[c]++;
      const base = c * dim;
      for (let j = 0; j < words; j++) {
        let w = bits[o + j];
        while (w !== 0) {
          const low = w & -w;
          ones[base + j * 32 + (31 - Math.clz32(low))]++;
          w ^= low;
        }
      }
      if ((i & 1023) === 1023) yield;
    }
    for (let c = 0; c < k; c++) {
      const co = c * words;
      if (members[c] === 0) {
        const s = slots[Math.floor(rand() * n)] * words;
        cents.set(bits.subarray(s, s + words), co);
        continue;
      }
      const half = members[c] / 2;
      for (let j = 0; j < words; j++) {
        let w = 0;
        for (let b = 0; b < 32; b++) if (ones[c * dim + j * 32 + b] > half) w |= 1 << b;
        cents[co + j] = w;
      }
    }
    yield;
  }
  return cents;
}

/** The leaves (inverted lists) of a trained two-level partition, kept current slot by slot. */
export class CodePartition {
  private readonly lists: Int32Array[];
  private readonly lens: Int32Array;
  private listOf: Int32Array;
  private posOf: Int32Array;
  private readonly near = new Int32Array(GROUP_PROBES);
  private readonly nearD = new Int32Array(GROUP_PROBES);

  /**
   * `groups` coarse centroids; `leaves` holds `groups * perGroup` leaf centroids, group g's
   * leaves at [g * perGroup, (g + 1) * perGroup).
   */
  constructor(
    private readonly words: number,
    private readonly groups: Uint32Array,
    private readonly leaves: Uint32Array,
    private readonly perGroup: number,
    cap: number,
    readonly trainedSize: number,
  ) {
    const n = this.count;
    this.lists = Array.from({ length: n }, () => new Int32Array(16));
    this.lens = new Int32Array(n);
    this.listOf = new Int32Array(cap).fill(-1);
    this.posOf = new Int32Array(cap);
  }

  get count(): number {
    return this.leaves.length / this.words;
  }

  /**
   * The leaf of the code at `bits[o..]`: the nearest leaf of its GROUP_PROBES nearest groups
   * within GROUP_MARGIN of the nearest (with only the nearest group, a code near a group
   * boundary lands in a leaf that the queries near it do not rank high).
   */
  leafOf(bits: Uint32Array, o: number): number {
    const w = this.words;
    const g = this.groups.length / w;
    const near = this.near.fill(-1);
    const nearD = this.nearD.fill(0x7fffffff);
    const last = near.length - 1;
    for (let c = 0; c < g; c++) {
      const d = hamming(bits, o, this.groups, c * w, w);
      if (d >= nearD[last]) continue;
      let i = last;
      for (; i > 0 && nearD[i - 1] > d; i--) (nearD[i] = nearD[i - 1]), (near[i] = near[i - 1]);
      nearD[i] = d;
      near[i] = c;
    }
    let best = 0;
    let bestD = 0x7fffffff;
    for (let n = 0; n <= last; n++) {
      const c = near[n];
      if (c < 0 || nearD[n] > nearD[0] + GROUP_MARGIN) break;
      for (let l = c * this.perGroup, end = l + this.perGroup; l < end; l++) {
        const d = hamming(bits, o, this.leaves, l * w, w);
        if (d < bestD) (bestD = d), (best = l);
      }
    }
    return best;
  }

  /** Files the slot (whose code is at bits[slot * words..]) under its leaf, moving it if it was elsewhere. */
  assign(slot: number, bits: Uint32Array): void {
    const leaf = this.leafOf(bits, slot * this.words);
    const was = this.listOf[slot];
    if (was === leaf) return;
    if (was >= 0) this.remove(slot);
    let list = this.lists[leaf];
    const len = this.lens[leaf];
    if (len === list.length) {
      const bigger = new Int32Array(len * 2);
      bigger.set(list);
      this.lists[leaf] = list = bigger;
    }
    list[len] = slot;
    this.posOf[slot] = len;
    this.lens[leaf] = len + 1;
    this.listOf[slot] = leaf;
  }

  remove(slot: number): void {
    const leaf = slot < this.listOf.length ? this.listOf[slot] : -1;
    if (leaf < 0) return;
    const list = this.lists[leaf];
    const last = --this.lens[leaf];
    const pos = this.posOf[slot];
    const moved = list[last];
    list[pos] = moved;
    this.posOf[moved] = pos;
    this.listOf[slot] = -1;
  }

  grow(cap: number): void {
    const listOf = new Int32Array(cap).fill(-1);
    listOf.set(this.listOf);
    const posOf = new Int32Array(cap);
    posOf.set(this.posOf);
    this.listOf = listOf;
    this.posOf = posOf;
  }

  /**
   * Slots of the leaves nearest to the query code (by Hamming to the leaf centroids): at
   * least `probes` leaves, and more until at least `atLeast` slots are gathered.
   */
  candidates(qb: Uint32Array, probes: number, atLeast: number): number[] {
    const n = this.count;
    const dist = new Uint16Array(n);
    for (let c = 0; c < n; c++) dist[c] = hamming(qb, 0, this.leaves, c * this.words, this.words);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => dist[a] - dist[b] || a - b);
    const out: number[] = [];
    for (let i = 0; i < n && (i < probes || out.length < atLeast); i++) {
      const leaf = order[i];
      const list = this.lists[leaf];
      for (let j = 0, len = this.lens[leaf]; j < len; j++) out.push(list[j]);
    }
    return out;
  }

  /** Bytes held beyond the index's own arrays (lists, slot → leaf and position, centroids). */
  heldBytes(): number {
    let b = this.listOf.byteLength + this.posOf.byteLength + this.groups.byteLength + this.leaves.byteLength;
    for (const l of this.lists) b += l.byteLength;
    return b;
  }
}

export interface TrainedCentroids {
  groups: Uint32Array;
  leaves: Uint32Array;
  perGroup: number;
}

/** Sample codes per leaf the training reads (and Lloyd rounds at each level). */
export const SAMPLE_PER_LEAF = 32;
export const TRAIN_ROUNDS = 6;

/**
 * Two-level centroids for about `lists` leaves over the codes at these (live) slots: √lists
 * groups trained on a sample, then √lists leaves per group on the sample's members of it.
 */
export function* trainTwoLevel(bits: Uint32Array, words: number, live: Int32Array, lists: number, seed: number): Generator<void, TrainedCentroids> {
  const rand = random(seed);
  const want = Math.min(live.length, lists * SAMPLE_PER_LEAF);
  const sample = new Int32Array(want);
  for (let i = 0; i < want; i++) sample[i] = live[Math.min(live.length - 1, Math.floor(((i + rand()) * live.length) / want))];
  const g = Math.max(1, Math.round(Math.sqrt(lists)));
  const perGroup = Math.max(1, Math.round(lists / g));
  const groups: Uint32Array = yield* trainCentroids(bits, words, sample, g, TRAIN_ROUNDS, seed + 1);
  const members: number[][] = Array.from({ length: g }, () => []);
  for (const slot of sample) members[nearestCentroid(bits, slot * words, groups, 0, g, words)].push(slot);
  const leaves = new Uint32Array(g * perGroup * words);
  for (let c = 0; c < g; c++) {
    const m = members[c];
    if (m.length === 0) {
      for (let l = 0; l < perGroup; l++) leaves.set(groups.subarray(c * words, c * words + words), (c * perGroup + l) * words);
      continue;
    }
    const cents: Uint32Array = yield* trainCentroids(bits, words, Int32Array.from(m), perGroup, TRAIN_ROUNDS, seed + 2 + c);
    leaves.set(cents, c * perGroup * words);
  }
  return { groups, leaves, perGroup };
}
